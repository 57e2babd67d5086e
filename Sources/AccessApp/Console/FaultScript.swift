import AccessAPI
import Foundation

/// A fault as QA types it, in the palette (`fault …`) and in a tape (a `fault` step): a path and one fault or a
/// sequence of them, as WireMock scripts them. `PATH STEP [then STEP]…` sets the sequence (every endpoint fault
/// set before is replaced); `PATH then STEP [then STEP]…` appends it after the faults already set, so a
/// sequence can be built a step at a time. A step: `409 [code]`, `latency MS`, `jitter MIN-MAX ms [seed N]`,
/// `dribble MS ms`, `malformed cut|wrong-type|html`, `reset`, `unavailable`, `offline`, `timeout`,
/// `commit_then_fail`, each with `xN` for the next N calls only; or `body [2xx] JSON [xN]` alone.
public struct FaultScript: Equatable, Sendable {
    /// A path starting with /, or `*` for every call but the admin API.
    public var path: String
    public var steps: [FaultChoice]
    /// After the faults already set, instead of in their place.
    public var appends: Bool

    /// The longest JSON answer a body fault takes (the contract's `body` maxLength).
    static let maxFaultBody = 16_384
    static let maxLatencyMs = 30_000
    static let maxTimes = 1000
    static let maxPathLength = 200

    public enum Parsed: Equatable, Sendable {
        case script(FaultScript)
        /// The words read as a fault on a path, but one of them is wrong: what to change.
        case problem(String)
        /// Not a fault yet (no path, or nothing after it).
        case incomplete
    }

    /// What the settings to send are: the sequence in place of every endpoint fault, or after them.
    public var settings: FaultSettings {
        let faults = steps.map { $0.fault(on: path) }
        return appends ? FaultSettings(appendEndpoints: faults) : FaultSettings(endpoints: faults)
    }

    /// "status 429, once, then status 500, 2 times on /me/auth-methods".
    public var title: String {
        let sequence = steps.map(\.label).joined(separator: ", then ")
        return (appends ? "then " : "") + sequence + " on " + (path == "*" ? "every call" : path)
    }

    /// `text`: what follows the word `fault`.
    public static func parse(_ text: String) -> Parsed {
        let words = text.split(separator: " ").map(String.init)
        guard let path = words.first, path == "*" || path.hasPrefix("/") else { return .incomplete }
        guard path.count <= maxPathLength else { return .problem("a path is at most \(maxPathLength) characters") }
        guard words.count >= 2 else { return .incomplete }
        if words[1].lowercased() == "body" {
            guard let choice = bodyStep(text) else {
                return .problem("body takes [2xx] and a JSON text (at most \(maxFaultBody) bytes), then [xN]")
            }
            return .script(FaultScript(path: path, steps: [choice], appends: false))
        }
        var rest = Array(words.dropFirst())
        let appends = rest.first?.lowercased() == "then"
        if appends { rest.removeFirst() }
        var groups: [[String]] = [[]]
        for word in rest {
            if word.lowercased() == "then" { groups.append([]) } else { groups[groups.count - 1].append(word) }
        }
        var steps: [FaultChoice] = []
        for group in groups {
            guard !group.isEmpty else { return .problem("then needs a fault on each side") }
            switch step(group) {
            case .success(let choice): steps.append(choice)
            case .failure(let problem): return .problem(problem.message)
            }
        }
        return .script(FaultScript(path: path, steps: steps, appends: appends))
    }

    struct Problem: Error {
        var message: String
    }

    static let kinds =
        "a status 400-599, latency, jitter, dribble, malformed, reset, unavailable, offline, timeout, commit_then_fail"

    /// The kinds that take no value.
    private static let plainKinds: [String: Components.Schemas.EndpointFault.KindPayload] = [
        "reset": .reset, "unavailable": .unavailable, "offline": .offline, "timeout": .timeout,
        "commit_then_fail": .commitThenFail, "commit-then-fail": .commitThenFail,
    ]

    /// One step: `KIND [VALUE…] [xN]`.
    private static func step(_ words: [String]) -> Result<FaultChoice, Problem> {
        var words = words
        var times: Int?
        if let last = words.last, last.lowercased().hasPrefix("x"), let count = Int(last.dropFirst()) {
            guard (1...maxTimes).contains(count) else { return .failure(Problem(message: "xN takes 1 to \(maxTimes)")) }
            times = count
            words.removeLast()
        }
        guard let kind = words.first?.lowercased() else {
            return .failure(Problem(message: "a count needs a fault before it: \(kinds)"))
        }
        let values = words.dropFirst().map { $0.lowercased() }
        var choice: FaultChoice
        switch kind {
        case "latency":
            guard let ms = milliseconds(values), (0...maxLatencyMs).contains(ms) else {
                return .failure(Problem(message: "latency takes MS, 0 to \(maxLatencyMs)"))
            }
            choice = FaultChoice(kind: .latency, latencyMs: ms)
        case "jitter":
            guard let parsed = jitter(values) else {
                return .failure(
                    Problem(message: "jitter takes MIN-MAX ms (MIN no larger, at most \(maxLatencyMs)) [seed N]"))
            }
            choice = parsed
        case "dribble":
            guard let ms = milliseconds(values), (1...maxLatencyMs).contains(ms) else {
                return .failure(Problem(message: "dribble takes MS ms, 1 to \(maxLatencyMs)"))
            }
            choice = FaultChoice(kind: .dribble)
            choice.dribbleMs = ms
        case "malformed":
            let which: Components.Schemas.EndpointFault.MalformedPayload?
            switch values.first.map({ $0.replacingOccurrences(of: "-", with: "_") }) {
            case "cut": which = .cut
            case "wrong_type": which = .wrongType
            case "html": which = .html
            default: which = nil
            }
            guard let which, values.count == 1 else {
                return .failure(Problem(message: "malformed takes cut, wrong-type or html"))
            }
            choice = FaultChoice(kind: .malformed)
            choice.malformed = which
        case "reset", "unavailable", "offline", "timeout", "commit_then_fail", "commit-then-fail":
            guard values.isEmpty else { return .failure(Problem(message: "\(kind) takes nothing more")) }
            choice = FaultChoice(kind: plainKinds[kind] ?? .commitThenFail)
        default:
            guard let status = Int(kind) else {
                return .failure(Problem(message: "'\(words[0])' is not a fault: \(kinds)"))
            }
            guard (400...599).contains(status) else {
                return .failure(Problem(message: "a status is 400 to 599"))
            }
            choice = FaultChoice(kind: .status, status: status)
            switch values.count {
            case 0: break
            case 1:
                guard words[1].wholeMatch(of: /[a-z][a-z0-9_]{0,63}/) != nil else {
                    return .failure(Problem(message: "an error code is lower-case letters, digits and _"))
                }
                choice.code = words[1]
            default: return .failure(Problem(message: "a status takes one error code at most"))
            }
        }
        choice.times = times
        return .success(choice)
    }

    /// `1500`, `1500ms` or `1500 ms`.
    private static func milliseconds(_ values: [String]) -> Int? {
        let joined = values.joined()
        guard !joined.isEmpty else { return nil }
        return Int(joined.hasSuffix("ms") ? String(joined.dropLast(2)) : joined)
    }

    /// `MIN-MAX [ms] [seed N]`.
    private static func jitter(_ values: [String]) -> FaultChoice? {
        var values = values
        var seed: Int?
        if values.count >= 2, values[values.count - 2] == "seed" {
            guard let number = Int(values[values.count - 1]), (0...Int(UInt32.max)).contains(number) else {
                return nil
            }
            seed = number
            values.removeLast(2)
        }
        let joined = values.joined()
        let range = joined.hasSuffix("ms") ? String(joined.dropLast(2)) : joined
        let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let low = Int(bounds[0]), let high = Int(bounds[1]), 0 <= low, low <= high,
            high <= maxLatencyMs
        else { return nil }
        var choice = FaultChoice(kind: .jitter, latencyMs: low)
        choice.latencyMaxMs = high
        choice.seed = seed
        return choice
    }

    /// `PATH body [2xx] JSON [xN]` (the query after `fault`): the JSON is the text as typed, its spaces kept, and
    /// must parse.
    private static func bodyStep(_ text: String) -> FaultChoice? {
        let grammar = /^\s*(\S+)\s+body\s+(?:(2\d\d)\s+)?(.+?)(?:\s+x(\d+))?\s*$/.ignoresCase()
        guard let match = text.wholeMatch(of: grammar) else { return nil }
        let json = String(match.3)
        guard json.utf8.count <= maxFaultBody,
            (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) != nil
        else { return nil }
        var choice = FaultChoice(kind: .body)
        choice.body = json
        choice.bodyStatus = match.2.flatMap { Int($0) }
        if let count = match.4 {
            guard let times = Int(count), (1...maxTimes).contains(times) else { return nil }
            choice.times = times
        }
        return choice
    }
}
