import AccessAPI
import AccessCore
import Foundation

/// Palette commands made from what is typed, for values no list can hold (WireMock's and Stripe's test
/// clocks' own numbers): `clock +90s`, `clock 2026-12-01T09:00`, `fault /auth/me 409 account_suspended x2`,
/// `fault * latency 1500`, `fault /me/profile body 200 {"display_name": null}`. The catalog offers a grammar (reference backend only) as a row that explains it;
/// a query that reads as one becomes a command above the list.
public enum TypedCommand: String, Equatable, Sendable, CaseIterable {
    case clock
    case fault
    /// `world NAME SCENARIO`: "New world from scenario" (issue 33), offered where the backend serves worlds.
    case world
    /// `journal status:429 path:/auth/phone/*`: F3 opened on those filters (issue 51 item 1), the backend's words.
    case journal

    /// The row that stands for the grammar: its title, and what to type.
    var template: PaletteCommand {
        switch self {
        case .clock:
            return PaletteCommand(
                "Clock: set a time or move by an amount…",
                detail: "type clock +90s, clock +2d, clock 2026-12-01T09:00 (UTC, forward only)", .typed(self))
        case .fault:
            return PaletteCommand(
                "Fault: your own status, code, latency, count…",
                detail: "type fault PATH|* 409 [code] | latency MS | unavailable | offline | timeout "
                    + "| commit_then_fail | body [2xx] JSON, then [xN] for N times", .typed(self))
        case .world:
            return PaletteCommand(
                "New world from scenario…", detail: "type world NAME SCENARIO (a scenario as the Scenario: rows list)",
                .typed(self))
        case .journal:
            return PaletteCommand(
                "Journal: requests that match…",
                detail: "type journal path:/auth/phone/* status:4xx method:POST rule:ID user:ID since:T until:T",
                .typed(self))
        }
    }

    /// The command `query` reads as under this grammar; nil when it does not.
    func command(for query: String) -> PaletteCommand? {
        let words = query.split(separator: " ").map(String.init)
        guard words.first?.lowercased() == rawValue, words.count >= 2 else { return nil }
        switch self {
        case .journal:
            let words = words.dropFirst().joined(separator: " ")
            do {
                _ = try JournalFilter.parse(words: words, rules: JournalPanel.ruleIDs)
            } catch let invalid as JournalFilter.Invalid {
                return PaletteCommand("Journal: \(invalid.message)", detail: "as typed", .none)
            } catch {
                return nil
            }
            return PaletteCommand("Journal: \(words)", detail: "F3 with this filter", .showJournal(filter: words))
        case .world:
            let name = words[1]
            // The name's rule is checked as it is typed: the row says what is wrong instead of a command.
            guard WorldNames.isValid(name) else {
                return PaletteCommand("World name '\(name)': \(WorldNames.problem)", detail: "as typed", .none)
            }
            guard words.count == 3 else {
                return PaletteCommand(
                    "New world \(name): type its scenario after the name", detail: "world NAME SCENARIO", .none)
            }
            return PaletteCommand(
                "New world \(name) from scenario \(words[2])", detail: "as typed",
                .newWorld(name: name, scenario: words[2]))
        case .clock:
            let amount = words.dropFirst().joined(separator: " ")
            if let problem = ClockMove.unitMissing(amount) {
                return PaletteCommand("Clock: \(problem)", detail: "as typed", .none)
            }
            guard let move = ClockMove.parse(amount) else { return nil }
            return PaletteCommand("Clock \(move.label)", detail: "as typed", .moveClock(move))
        case .fault:
            guard let (path, choice) = Self.bodyFault(query) ?? Self.fault(Array(words.dropFirst())) else {
                return nil
            }
            let title = "\(choice.label) on \(path == "*" ? "every call" : path)"
            return PaletteCommand(
                "Fault: \(title)", detail: "as typed",
                .setFaults(FaultSettings(endpoints: [choice.fault(on: path)]), label: "Fault on: \(title)"))
        }
    }

    /// The longest JSON answer a body fault takes (the contract's `body` maxLength).
    static let maxFaultBody = 16_384

    /// `fault PATH body [2xx] JSON [xN]`: the JSON is the text as typed, its spaces kept, and must parse.
    private static func bodyFault(_ query: String) -> (String, FaultChoice)? {
        let grammar = /^\s*fault\s+(\S+)\s+body\s+(?:(2\d\d)\s+)?(.+?)(?:\s+x(\d+))?\s*$/.ignoresCase()
        guard let match = query.wholeMatch(of: grammar) else { return nil }
        let path = String(match.1)
        let json = String(match.3)
        guard path == "*" || (path.hasPrefix("/") && path.count <= 200), json.utf8.count <= maxFaultBody,
            (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) != nil
        else { return nil }
        var choice = FaultChoice(kind: .body)
        choice.body = json
        choice.bodyStatus = match.2.flatMap { Int($0) }
        if let count = match.4 {
            guard let times = Int(count), (1...1000).contains(times) else { return nil }
            choice.times = times
        }
        return (path, choice)
    }

    /// `PATH KIND [VALUE] [CODE] [xN]`.
    private static func fault(_ words: [String]) -> (String, FaultChoice)? {
        guard let path = words.first, path == "*" || (path.hasPrefix("/") && path.count <= 200) else { return nil }
        var rest = Array(words.dropFirst())
        var times: Int?
        if let last = rest.last, last.lowercased().hasPrefix("x"), let count = Int(last.dropFirst()) {
            guard (1...1000).contains(count) else { return nil }
            times = count
            rest.removeLast()
        }
        guard let kind = rest.first?.lowercased() else { return nil }
        var choice: FaultChoice
        switch (kind, rest.count) {
        case ("latency", 2):
            guard let ms = Int(rest[1].lowercased().replacingOccurrences(of: "ms", with: "")),
                (0...30_000).contains(ms)
            else { return nil }
            choice = FaultChoice(kind: .latency, latencyMs: ms)
        case ("unavailable", 1): choice = FaultChoice(kind: .unavailable)
        case ("offline", 1): choice = FaultChoice(kind: .offline)
        case ("timeout", 1): choice = FaultChoice(kind: .timeout)
        case ("commit_then_fail", 1), ("commit-then-fail", 1): choice = FaultChoice(kind: .commitThenFail)
        case (_, 1...2):
            guard let status = Int(kind), (400...599).contains(status) else { return nil }
            choice = FaultChoice(kind: .status, status: status)
            if rest.count == 2 {
                guard rest[1].wholeMatch(of: /[a-z][a-z0-9_]{0,63}/) != nil else { return nil }
                choice.code = rest[1]
            }
        default: return nil
        }
        choice.times = times
        return (path, choice)
    }
}
