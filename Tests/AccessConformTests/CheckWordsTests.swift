import AccessConform
import AccessCore
import Foundation
import Testing

/// Issue 46: conform's check titles and messages say the rules' numbers as AccessCore has them (`RuleNumbers`), read
/// from the constants, so a rule that changes there changes the words of the check that looks at it. They wrote
/// "5 wrong codes", "30 s", "15 min" by hand, a second copy of each number.
@Suite struct CheckWordsTests {
    /// The statuses a title names ("answers 404 …"): the contract's, not a rule's number.
    static let statuses: Set<Int> = [
        200, 201, 202, 204, 400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 429, 500, 503,
    ]

    static let units: [String: Double] = ["s": 1, "min": 60, "h": 3600, "day": 86_400, "days": 86_400, "KiB": 1024]

    /// Each number a title says, with what it must be: a time in seconds, a count, or the count an ordinal is one past
    /// ("the 6th" after 5). A status (three digits) may also be a count.
    static func numbers(in title: String) -> [(phrase: String, value: Double, ordinal: Bool)] {
        title.matches(of: #/\b(\d+)(st|nd|rd|th)?(?: (s|min|h|days?|KiB)\b)?/#).map { match in
            let unit = match.output.3.map { units[String($0)] ?? .nan } ?? 1
            return (String(match.output.0), Double(match.output.1)! * unit, match.output.2 != nil)
        }
    }

    @Test func theReaderFindsNumbersTheirUnitsAndOrdinals() {
        let found = Self.numbers(in: "3 resends in 15 min go; the 4th, within 24 h, over 64 KiB, answers 429")
        #expect(found.map(\.value) == [3, 900, 4, 86_400, 65_536, 429])
        #expect(found.map(\.ordinal) == [false, false, true, false, false, false])
    }

    @Test func everyNumberInATitleIsARuleNumber() {
        let times = Set(RuleNumbers.durations.values)
        let counts = Set(RuleNumbers.counts.values.map(Double.init))
        var checked = 0
        for check in Catalogue.checks {
            for (phrase, value, ordinal) in Self.numbers(in: check.title) {
                checked += 1
                let isTime =
                    phrase.hasSuffix(" s") || phrase.hasSuffix("min") || phrase.hasSuffix(" h")
                    || phrase.hasSuffix("day") || phrase.hasSuffix("days")
                let known =
                    isTime
                    ? times.contains(value)
                    : ordinal
                        ? counts.contains(value - 1)
                        : counts.contains(value) || Self.statuses.contains(Int(value))
                #expect(known, "\(check.rule.rawValue)'s title says \"\(phrase)\", which is no rule's number")
            }
        }
        // Not an empty pass: the limits' titles say their numbers.
        #expect(checked > 40)
    }

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AccessConform")

    /// A rule's number written out in a string literal: a number after a word that bounds it ("within 30", "the 3")
    /// or before a unit or what it counts ("15 min", "5 wrong", "6th send"). Zero and the checks' one-second step
    /// either side of a limit ("1 s before") are no rule's number.
    static func writtenOut(in source: String) -> [String] {
        let bounded =
            #/(?:\b(?:over|under|than|after|within|before|the|of|for|in|by)|remaining:) (\d+)(?:st|nd|rd|th)?\b/#
        let counted =
            #/\b(\d+)(?:st|nd|rd|th)?[ -](?:s|min|h|days?|KiB|wrong|resends?|sends?|characters?|bytes?|codes?|recovery|passwords?|requests?|tries|allowed)\b/#
        var found: [String] = []
        for line in source.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            // The string literals of the line: what lies between its quotes (an escaped one is inside).
            let literals = line.replacingOccurrences(of: "\\\"", with: "'")
                .split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map(\.element)
            for literal in literals {
                let hits =
                    literal.matches(of: bounded).map { (String($0.output.0), $0.output.1) }
                    + literal.matches(of: counted).map { (String($0.output.0), $0.output.1) }
                found += hits.filter { $0.1 != "0" && $0.0 != "1 s" }.map(\.0)
            }
        }
        return found
    }

    @Test func theScannerFindsNumbersWrittenOut() {
        let source = """
            Check(.a, "3 resends in 15 min go; the 4th is refused") { _ in }
            expected: "attempts_remaining: 4", "a 1025-character photo", "after 5 wrong ones"
            "within \\(time(SendLimits.cooldown))", "1 s before its end", "attempts_remaining: 0", "answers 404"
            // "5 min" in a comment
            """
        #expect(
            Set(Self.writtenOut(in: source)) == [
                "in 15", "the 4th", "3 resends", "15 min", "remaining: 4", "1025-character", "after 5", "5 wrong",
            ])
    }

    @Test func theChecksReadTheirNumbersFromAccessCore() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(files.count > 20, "found only \(files.count) files")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            found += Self.writtenOut(in: text).map { "\(file): \($0)" }
        }
        #expect(found.isEmpty, "numbers written out instead of read from AccessCore: \(found)")
    }
}
