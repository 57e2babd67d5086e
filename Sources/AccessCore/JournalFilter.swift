import Foundation

/// The journal's filters (issue 51 item 1), one definition for the backend's `GET /_admin/journal` and
/// `/_admin/journal/count`, the app's F3 `/` and the palette, and a tape's `expect-request`: a request passes
/// when it passes every filter given. The same words everywhere: the query parameters by name, and in the app
/// `name:value` words (`status:429 path:/auth/phone/*`).
public struct JournalFilter: Equatable, Sendable {
    /// An exact path, or with a trailing `*` every path that starts with what comes before it.
    public var path: String?
    /// Compared without case.
    public var method: String?
    public var status: Status?
    public var rule: String?
    public var user: String?
    /// Inclusive, on the backend's clock.
    public var since: Date?
    public var until: Date?

    public init(
        path: String? = nil, method: String? = nil, status: Status? = nil, rule: String? = nil, user: String? = nil,
        since: Date? = nil, until: Date? = nil
    ) {
        self.path = path
        self.method = method
        self.status = status
        self.rule = rule
        self.user = user
        self.since = since
        self.until = until
    }

    /// A status code, or a class: `4xx` is 400 to 499.
    public enum Status: Equatable, Sendable, CustomStringConvertible {
        case code(Int)
        case group(Int)

        /// "429", "4xx" (any case); nil for anything else.
        public init?(_ text: String) {
            let lowered = text.lowercased()
            if lowered.count == 3, lowered.hasSuffix("xx"), let first = Int(lowered.prefix(1)), (1...5).contains(first)
            {
                self = .group(first)
            } else if lowered.count == 3, let code = Int(lowered), (100...599).contains(code) {
                self = .code(code)
            } else {
                return nil
            }
        }

        public func matches(_ status: Int) -> Bool {
            switch self {
            case .code(let code): status == code
            case .group(let first): status / 100 == first
            }
        }

        public var description: String {
            switch self {
            case .code(let code): String(code)
            case .group(let first): "\(first)xx"
            }
        }
    }

    /// A filter value that does not read: the backend's 400 `invalid_parameter`, the app's line under its filter.
    public struct Invalid: Error, Equatable, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// The names a filter is given by, as query parameters and as `name:value` words.
    public static let names = ["path", "method", "status", "rule", "user", "since", "until"]

    public var isEmpty: Bool { self == JournalFilter() }

    /// Whether a request with these parts passes every filter given. `status` nil: no answer was kept (the app's
    /// record of a call that got none), which no status filter passes.
    public func matches(method: String, path: String, status: Int?, rule: String?, user: String?, at: Date?) -> Bool {
        if let pattern = self.path, !Self.path(path, matches: pattern) { return false }
        if let wanted = self.method, wanted.caseInsensitiveCompare(method) != .orderedSame { return false }
        if let wanted = self.status, !(status.map(wanted.matches) ?? false) { return false }
        if let wanted = self.rule, wanted != rule { return false }
        if let wanted = self.user, wanted != user { return false }
        if let since { guard let at, at >= since else { return false } }
        if let until { guard let at, at <= until else { return false } }
        return true
    }

    static func path(_ path: String, matches pattern: String) -> Bool {
        pattern.hasSuffix("*") ? path.hasPrefix(pattern.dropLast()) : path == pattern
    }

    /// Sets one filter from its text, as a query parameter or a word's value gives it. `rules`: the ids a rule
    /// filter may name (a typo would otherwise match nothing, silently).
    public mutating func set(_ name: String, to value: String, rules: Set<String>) throws(Invalid) {
        guard !value.isEmpty else { throw Invalid("\(name): give a value.") }
        switch name {
        case "path":
            guard value.hasPrefix("/") else { throw Invalid("path: starts with /, and may end in * for a prefix.") }
            path = value
        case "method":
            guard value.allSatisfy({ $0.isASCII && $0.isLetter }) else { throw Invalid("method: a word like GET.") }
            method = value.uppercased()
        case "status":
            guard let parsed = Status(value) else { throw Invalid("status: a code like 429 or a class like 4xx.") }
            status = parsed
        case "rule":
            guard rules.contains(value) else { throw Invalid("rule: no rule is named \(value) (docs/RULES.md).") }
            rule = value
        case "user":
            user = value
        case "since", "until":
            guard let date = Self.date(value) else {
                throw Invalid("\(name): a time like 2026-11-25T10:42:07Z (the backend's clock, UTC).")
            }
            if name == "since" { since = date } else { until = date }
        default:
            throw Invalid("\(name): not a filter; the filters are \(Self.names.joined(separator: ", ")).")
        }
    }

    /// ISO 8601 with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// The `name:value` words of `text` read as filters, and the other words left for plain matching.
    /// `status:429 path:/auth/phone/* otp` is a status, a path prefix and the word "otp".
    public static func parse(
        words text: String, rules: Set<String>
    ) throws(Invalid) -> (
        filter: JournalFilter, rest: [String]
    ) {
        var filter = JournalFilter()
        var rest: [String] = []
        for word in text.split(separator: " ") {
            if let colon = word.firstIndex(of: ":"), names.contains(String(word[..<colon]).lowercased()) {
                try filter.set(
                    String(word[..<colon]).lowercased(), to: String(word[word.index(after: colon)...]), rules: rules)
            } else {
                rest.append(String(word))
            }
        }
        return (filter, rest)
    }

    /// The filters as query items, in the order of `names` (for `GET /_admin/journal`).
    public var queryItems: [(name: String, value: String)] {
        let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
        let values: [String?] = [
            path, method, status?.description, rule, user, since.map { $0.formatted(style) },
            until.map { $0.formatted(style) },
        ]
        return zip(Self.names, values).compactMap { name, value in value.map { (name, $0) } }
    }
}
