import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Every limit the app says, on a screen or in a spec note, is one of the rules' numbers in AccessCore
/// (`RuleNumbers`), and the copy reads it from there rather than writing it out (issue 46 item 2): a used
/// revert link (7 days) said "Verification links expire after 30 minutes", a number written by hand for
/// another kind of link.
@Suite struct RuleNumbersOnScreenTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// The app's own times, which no backend rule sets: how long the start waits for the session check
    /// (seed 002's "under 2 seconds").
    static let appTimes: Set<TimeInterval> = [SessionCheckScreen.patience]

    static let units: [String: TimeInterval] = [
        "s": 1, "second": 1, "seconds": 1, "min": 60, "minute": 60, "minutes": 60, "h": 3600, "hour": 3600,
        "hours": 3600, "day": 86_400, "days": 86_400,
    ]
    static let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// Every time a text says ("30 s", "15-minute", "five minutes", "24 hours"), in seconds, with the phrase.
    /// Not a relative time of some data ("active 5 min ago"), nor a clock move ("+30 s"), nor a countdown ("0:27").
    static func times(in text: String) -> [(phrase: String, seconds: TimeInterval)] {
        let unit = #"(s|seconds?|min|minutes?|h|hours?|days?)"#
        let number = #"(\d+|"# + words.joined(separator: "|") + ")"
        // Swift's Regex has no lookbehind: the character before the number is matched, and left out of the phrase.
        let pattern = try! Regex(#"(?:^|[^\w:+.])("# + number + "[ -]" + unit + #")\b(?! ago)"#)
        return text.matches(of: pattern).compactMap { match in
            guard let phrase = match.output[1].substring, let counted = match.output[2].substring,
                let named = match.output[3].substring
            else { return nil }
            let value = Double(counted) ?? words.firstIndex(of: counted.lowercased()).map { Double($0 + 1) }
            guard let value, let seconds = units[String(named)] else { return nil }
            return (String(phrase), value * seconds)
        }
    }

    @Test func theReaderFindsTimesAndLeavesDataAlone() {
        let found = Self.times(
            in: "for 30 minutes, a 15-minute window, five minutes, 24 h, 7 days; active 5 min ago, +30 s, in 0:27")
        #expect(found.map(\.seconds) == [1800, 900, 300, 86_400, 604_800])
    }

    /// A screen as text, its boxes' borders taken out and its lines run together, so a phrase the layout
    /// wrapped ("for 30" above "minutes") reads whole.
    static func screenText(_ entry: GalleryEntry) -> String {
        let grid = render(entry.makeState(start), size: .standard)
        return grid.textLines().map { line in
            line.unicodeScalars.filter { !(0x2500...0x257F).contains($0.value) }.map(String.init).joined()
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ")
    }

    static var noteTexts: [(screen: String, text: String)] {
        Features.screens.flatMap { screen in
            let notes = screen.specNotes
            let texts =
                notes.why
                + notes.calls.flatMap { call in [call.when] + call.answers.map(\.then) + [call.noAnswer ?? ""] }
            return texts.map { ("\(screen)", $0) }
        }
    }

    @Test func everyTimeOnScreenIsARuleNumber() {
        let allowed = Set(RuleNumbers.durations.values).union(Self.appTimes)
        var checked = 0
        for entry in Gallery.entries {
            for (phrase, seconds) in Self.times(in: Self.screenText(entry) + " " + entry.summary) {
                checked += 1
                #expect(allowed.contains(seconds), "\(entry.id) says \"\(phrase)\", which is no rule's number")
            }
        }
        // Not an empty pass: the link, code and lock screens say their limits.
        #expect(checked > 10)
    }

    @Test func everyTimeInTheSpecNotesIsARuleNumber() {
        let allowed = Set(RuleNumbers.durations.values).union(Self.appTimes)
        var checked = 0
        for (screen, text) in Self.noteTexts {
            for (phrase, seconds) in Self.times(in: text) {
                checked += 1
                #expect(allowed.contains(seconds), "\(screen)'s notes say \"\(phrase)\", which is no rule's number")
            }
        }
        #expect(checked > 30)
    }

    /// The copy's sources interpolate every limit (`RuleText.duration(LinkLifetimes.passwordReset)`), so a rule
    /// that changes in AccessCore changes on screen too: a time or a count of a limit written out in a string
    /// literal fails here, wherever it is shown.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AccessApp")

    /// Written out on purpose, each with why no rule's constant says it.
    static let writtenOut: Set<String> = [
        // Seed 001's support copy: how soon people reply, not a rule of the backend.
        "Features/Support/ContactSupportScreen.swift: 24 hours",
        // A server with other bounds than ours, as a gallery state shows its words.
        "Features/SignIn/SignInEmailScreen+Gallery.swift: 5 characters",
        // A gallery state's data: how many digits are typed in it.
        "Features/Phone/EnterCodeScreen+Gallery.swift: Three digits",
        // Seed 002's own rule, named to say ours differs from it.
        "Features/PasswordLogin/PasswordLogin+Notes.swift: 8 characters",
    ]

    @Test func theCopyReadsTheNumbersFromAccessCore() throws {
        let limit = try Regex(
            #"(?:^|[^\w:+.])((\d+|"# + Self.words.joined(separator: "|")
                + #")[ -](s|seconds?|min|minutes?|h|hours?|days?|wrong|resends?|tries|times|a day|per|codes|characters|digits))\b(?! ago)"#
        ).ignoresCase()
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path))
        var found: [String] = []
        for case let path as String in files where path.hasSuffix(".swift") {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                // The string literals of the line: what lies between its quotes (an escaped one is inside).
                let literals = line.replacingOccurrences(of: "\\\"", with: "'")
                    .split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.offset % 2 == 1 }.map(\.element)
                for literal in literals {
                    for match in literal.matches(of: limit) {
                        let entry = "\(path): \(match.output[1].substring ?? "")"
                        if !Self.writtenOut.contains(entry) { found.append(entry) }
                    }
                }
            }
        }
        #expect(found.isEmpty, "limits written out instead of read from AccessCore: \(found)")
    }
}
