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
    /// `timeline USER`: "Timeline: find user…" (issue 49), an account id, a phone number or an email address.
    case timeline
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
                detail: "type fault PATH|* 409 [code] | latency MS | jitter MIN-MAX ms | dribble MS ms "
                    + "| malformed cut|wrong-type|html | reset | unavailable | offline | timeout | commit_then_fail "
                    + "| body [2xx] JSON, each [xN] for N times; A then B for a sequence, PATH then B to add to it",
                .typed(self))
        case .timeline:
            return PaletteCommand(
                "Timeline: find user…",
                detail: "type timeline PHONE, EMAIL or usr_… (what happened to them, for support)", .typed(self))
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
        case .timeline:
            let user = words.dropFirst().joined()
            return PaletteCommand("Timeline of \(user)", detail: "as typed", .timeline(user))
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
            // The words after `fault` as typed: a body fault's JSON keeps its spaces.
            switch FaultScript.parse(String(query.drop { $0 == " " }.dropFirst(words[0].count))) {
            case .incomplete:
                return nil
            case .problem(let problem):
                return PaletteCommand("Fault: \(problem)", detail: "change what you typed", .none)
            case .script(let script):
                return PaletteCommand(
                    "Fault: \(script.title)", detail: script.appends ? "after the faults set, as typed" : "as typed",
                    .setFaults(script.settings, label: "Fault on: \(script.title)"))
            }
        }
    }
}
