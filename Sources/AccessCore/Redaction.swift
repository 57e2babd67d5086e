/// What a journal may show of a request: secrets replaced by "[redacted]". One place for the backend's
/// journal and the app's own, so both hide the same names.
public enum Redaction {
    public static let placeholder = "[redacted]"

    /// Headers that carry credentials: every one the contract declares (its security schemes: Authorization,
    /// X-Reauth-Token, X-Admin-Token; `RedactionTests` walks openapi.yaml so a new one cannot be missed),
    /// and besides these any header whose name says it holds one (`secretHeaderWords`).
    public static let secretHeaders: Set<String> = [
        "authorization", "cookie", "set-cookie", "x-admin-token", "x-reauth-token",
    ]

    /// A header whose name contains one of these is a credential, declared or not (X-Api-Key,
    /// Proxy-Authorization, X-CSRF-Token…): a value hidden by mistake costs less than a token shown.
    public static let secretHeaderWords = ["token", "secret", "key", "cookie", "authorization"]

    /// JSON members (at any depth) and query parameters whose values are secrets.
    public static let secretNames: Set<String> = [
        "password", "current_password", "new_password", "code", "token", "access_token", "refresh_token",
        "reauth_token", "id_token", "link", "url",
    ]

    public static func headerValue(name: String, value: String) -> String {
        isSecretHeader(name) ? placeholder : value
    }

    public static func isSecretHeader(_ name: String) -> Bool {
        isOne(of: secretHeaders, name) || secretHeaderWords.contains { containsIgnoringCase(name, $0) }
    }

    /// `a=1&code=123456` → `a=1&code=[redacted]`. Names are compared decoded and case-insensitively, so
    /// `Code` or `c%6Fde` hide their value too.
    public static func query(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decoded = (String(name).replacingPlusWithSpace.removingPercentEncodingSafely ?? String(name))
            return isSecret(decoded) ? "\(name)=\(placeholder)" : String(pair)
        }.joined(separator: "&")
    }

    /// The JSON text with every secret member's value replaced, whatever the value (string, number, object);
    /// everything else is kept as written. Text that is not JSON cannot be searched reliably, so none of it
    /// is kept.
    public static func json(_ text: String) -> String {
        json(Array(text.utf8)) ?? notJSON
    }

    public static let notJSON = "[not JSON]"

    /// Stops once `maxBytes` of output are written (the rest is neither read nor checked), so a large
    /// body costs no more than its first part. nil: not JSON.
    public static func json(_ bytes: some Collection<UInt8>, maxBytes: Int = .max) -> String? {
        var scanner = JSONRedactor(input: Array(bytes), maxBytes: maxBytes)
        guard scanner.run() else { return nil }
        return String(decoding: scanner.output, as: UTF8.self)
    }

    static func isSecret(_ name: String) -> Bool {
        isOne(of: secretNames, name)
    }

    /// Whether `name` contains the lowercase ASCII `word`, ignoring case, without lowercasing `name` first
    /// (asked of every header of every request); non-ASCII names take Unicode's lowercasing.
    private static func containsIgnoringCase(_ name: String, _ word: String) -> Bool {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return name.lowercased().contains(word) }
        // Over contiguous bytes with plain loops: with this and `isOne` going through string views, `zip` and
        // closures, the two were a twentieth of a whole `GET /me/auth-methods` (issue 34 item 2).
        var (name, word) = (name, word)
        return name.withUTF8 { haystack in
            word.withUTF8 { needle in
                guard haystack.count >= needle.count else { return false }
                candidates: for start in 0...(haystack.count - needle.count) {
                    for offset in 0..<needle.count {
                        let byte = haystack[start + offset]
                        let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                        if lowered != needle[offset] { continue candidates }
                    }
                    return true
                }
                return false
            }
        }
    }

    /// Case-insensitive membership without lowercasing first (an allocation and a hash): the journals ask
    /// this of every header and every JSON member name of every request. Non-ASCII names take Unicode's
    /// lowercasing, as before.
    private static func isOne(of lowercaseNames: Set<String>, _ name: String) -> Bool {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return lowercaseNames.contains(name.lowercased()) }
        var name = name
        return name.withUTF8 { bytes in
            lowercaseNames.contains { candidate in
                guard candidate.utf8.count == bytes.count else { return false }
                var candidate = candidate
                return candidate.withUTF8 { lower in
                    for index in 0..<bytes.count {
                        let byte = bytes[index]
                        let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                        if lowered != lower[index] { return false }
                    }
                    return true
                }
            }
        }
    }
}

extension String {
    fileprivate var replacingPlusWithSpace: String {
        replacing("+", with: " ")
    }

    fileprivate var removingPercentEncodingSafely: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// A strict recursive-descent pass over JSON that copies it through, writing "[redacted]" in place of a
/// secret member's value. One pass and no intermediate objects: the journal runs it on every body.
private struct JSONRedactor {
    let input: [UInt8]
    let maxBytes: Int
    var position = 0
    var output: [UInt8] = []
    /// Inside a secret value: read, never written.
    private var suppressed = false
    private static let redactedValue = Array("\"\(Redaction.placeholder)\"".utf8)
    /// Deeper nesting is refused rather than risking the stack.
    private let maxDepth = 64

    init(input: [UInt8], maxBytes: Int) {
        self.input = input
        self.maxBytes = maxBytes
        output.reserveCapacity(min(input.count, maxBytes))
    }

    /// Output full: stop, keeping what was written (already redacted).
    private var full: Bool { !suppressed && output.count >= maxBytes }

    mutating func run() -> Bool {
        skipWhitespace()
        guard value(depth: 0) else { return false }
        if full { return truncate() }
        skipWhitespace()
        return position == input.count
    }

    private mutating func truncate() -> Bool {
        // Cut on a character boundary: never the middle of a multi-byte UTF-8 sequence.
        var end = min(output.count, maxBytes)
        while end > 0, end < output.count, output[end] & 0xC0 == 0x80 { end -= 1 }
        output.removeSubrange(end...)
        return true
    }

    /// `member`: the name this value belongs to in its object, if any.
    private mutating func value(depth: Int, member: String? = nil) -> Bool {
        guard depth < maxDepth, position < input.count else { return false }
        switch input[position] {
        case UInt8(ascii: "{"): return object(depth: depth + 1, member: member)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string() != nil
        default: return scalar()
        }
    }

    private mutating func object(depth: Int, member: String?) -> Bool {
        emit()  // {
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            emit()
            return true
        }
        while !full {
            guard peek(UInt8(ascii: "\"")), let name = string() else { return false }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { return false }
            emit()
            skipWhitespace()
            // An error's `code` ("rate_limited") says what went wrong and is no secret; every other `code` is.
            let isErrorCode = member == "error" && name == "code"
            if Redaction.isSecret(name), !isErrorCode {
                // Read to its end whatever the output limit, writing nothing of it (a secret inside a
                // secret leaves it unwritten too).
                let outer = suppressed
                suppressed = true
                let valid = value(depth: depth)
                suppressed = outer
                guard valid else { return false }
                if !suppressed { output.append(contentsOf: Self.redactedValue) }
            } else {
                guard value(depth: depth, member: name) else { return false }
            }
            if full { return true }
            skipWhitespace()
            if peek(UInt8(ascii: "}")) {
                emit()
                return true
            }
            guard peek(UInt8(ascii: ",")) else { return false }
            emit()
            skipWhitespace()
        }
        return true
    }

    private mutating func array(depth: Int) -> Bool {
        emit()  // [
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            emit()
            return true
        }
        while !full {
            guard value(depth: depth) else { return false }
            if full { return true }
            skipWhitespace()
            if peek(UInt8(ascii: "]")) {
                emit()
                return true
            }
            guard peek(UInt8(ascii: ",")) else { return false }
            emit()
            skipWhitespace()
        }
        return true
    }

    /// Copies a string through and returns its raw content (escapes as written: no secret name has any).
    private mutating func string() -> String? {
        let start = position
        emit()  // opening quote
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                emit()
                return String(decoding: input[(start + 1)..<(position - 1)], as: UTF8.self)
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                emit()
                guard position < input.count else { return nil }
            }
            emit()
        }
        return nil
    }

    /// A number, true, false or null: checked loosely (its characters), which is all a journal needs.
    private mutating func scalar() -> Bool {
        let start = position
        while position < input.count, Self.scalarBytes.contains(input[position]) { emit() }
        let text = String(decoding: input[start..<position], as: UTF8.self)
        return text == "true" || text == "false" || text == "null" || Double(text) != nil
    }

    private static let scalarBytes = Set("0123456789+-.eEtruefalsn".utf8)

    private func peek(_ byte: UInt8) -> Bool {
        position < input.count && input[position] == byte
    }

    private mutating func emit() {
        if !suppressed { output.append(input[position]) }
        position += 1
    }

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: emit()
            default: return
            }
        }
    }
}
