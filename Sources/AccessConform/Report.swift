import AccessCore
import Foundation
import TerminalKit

/// The text `accessdeck conform` prints, and the JUnit XML of `--junit`.
public enum ConformReport {
    /// One line per rule and road, broken ones with what was expected, what came back and the exchange (redacted).
    /// What a backend sent is printed, so every line is escaped as a terminal must get it (`ControlCharacters`): a
    /// C1 control or a bidi override in a body would act on the terminal or turn the line around.
    public static func text(_ run: ConformRun) -> String {
        var lines: [String] = []
        let checked = run.results.filter { $0.verdict != .notChecked }
        let longest = checked.map(\.name.count).max() ?? 0
        for result in checked {
            let id = result.name.padding(toLength: longest, withPad: " ", startingAt: 0)
            switch result.verdict {
            case .kept: lines.append("kept         \(id) \(result.title)")
            case .broken(let expected, let got, let evidence):
                lines.append("BROKEN       \(id) \(result.title)")
                lines.append("    expected: \(expected)")
                lines.append("    got:      \(got)")
                for exchange in evidence {
                    lines.append(contentsOf: exchange.split(separator: "\n").map { "    " + $0 })
                }
            case .skipped(let why): lines.append("skipped      \(id) \(why)")
            case .cannotTell(let why): lines.append("cannot tell  \(id) \(why)")
            case .notChecked: break
            }
            lines.append(contentsOf: result.notes.map { "    note: \($0)" })
        }
        let unchecked = run.results.filter { $0.verdict == .notChecked }.map(\.rule.rawValue)
        if !unchecked.isEmpty {
            lines.append("not checked (no check written): " + unchecked.joined(separator: ", "))
        }
        lines.append(run.summary)
        return lines.map(ControlCharacters.escaped).joined(separator: "\n") + "\n"
    }

    /// One testcase per rule and road, named as the report names it (`rate_limit.cooldown /auth/phone/resend-otp`,
    /// its family as the class name): broken is a failure; skipped, cannot tell and not checked are skipped with
    /// their reason.
    public static func junit(_ run: ConformRun) -> String {
        let failures = run.brokenCount
        let skipped = run.results.filter { $0.verdict != .kept && !isBroken($0.verdict) }.count
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="accessdeck conform" tests="\(run.results.count)" failures="\(failures)" \
            skipped="\(skipped)">
            <testsuite name="accessdeck conform" tests="\(run.results.count)" failures="\(failures)" \
            errors="0" skipped="\(skipped)">

            """
        for result in run.results {
            let name = escape(result.name)
            let family = escape(result.rule.family.rawValue)
            xml += "  <testcase classname=\"\(family)\" name=\"\(name)\">"
            switch result.verdict {
            case .kept: break
            case .broken(let expected, let got, let evidence):
                xml += "<failure message=\"\(escape("expected \(expected); got \(got)"))\">"
                xml += escape(evidence.joined(separator: "\n")) + "</failure>"
            case .skipped(let why): xml += "<skipped message=\"\(escape(why))\"/>"
            case .cannotTell(let why): xml += "<skipped message=\"\(escape("cannot tell: " + why))\"/>"
            case .notChecked: xml += "<skipped message=\"not checked (no check written)\"/>"
            }
            xml += "</testcase>\n"
        }
        xml += "</testsuite>\n</testsuites>\n"
        return xml
    }

    static func isBroken(_ verdict: Verdict) -> Bool {
        if case .broken = verdict { return true }
        return false
    }

    static func escape(_ text: String) -> String { XMLText.escaped(text) }
}
