import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// docs/RULES.md says every rule of the catalogue, once, with the numbers of the constants that enforce it.
@Suite struct RulesDocumentTests {
    static let document = RuleCatalogueTests.root.appendingPathComponent("docs/RULES.md")

    static func text() throws -> String { try String(contentsOf: document, encoding: .utf8) }

    @Test func oneHeadingPerRuleAndNoOther() throws {
        let headings = try Self.text().split(separator: "\n").filter { $0.hasPrefix("### ") }
            .map { String($0.dropFirst(4)) }
        let ids = Rule.allCases.map(\.rawValue)
        let repeated = Dictionary(grouping: headings, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "headings more than once: \(repeated)")
        #expect(Set(ids).subtracting(headings).sorted() == [], "rules without a heading")
        #expect(Set(headings).subtracting(ids).sorted() == [], "headings that are no rule")
    }

    /// Each named constant the document quotes, in the unit the document gives it (seconds, or a count): every
    /// number of the rules from its one home in AccessCore (`RuleNumbers`), and the backend's own bounds on what a
    /// request may carry.
    static let constants: [String: Double] = RuleNumbers.all.merging(
        [
            "SessionListService.lastSeenStep": SessionListService.lastSeenStep,
            "ProviderService.maxSubjectLength": Double(ProviderService.maxSubjectLength),
            "JournalService.defaultLimit": Double(JournalService.defaultLimit),
            "FaultService.defaultRefusalSeconds": Double(FaultService.defaultRefusalSeconds),
            "FaultService.longestRefusalSeconds": Double(FaultService.longestRefusalSeconds),
            "FaultService.longestHold": Double(FaultService.longestHold.components.seconds),
            "FaultService.maxLatencyMs": Double(FaultService.maxLatencyMs),
            "FaultService.maxEndpointFaults": Double(FaultService.maxEndpointFaults),
            "FaultService.maxPathLength": Double(FaultService.maxPathLength),
            "FaultService.maxFaultMessageLength": Double(FaultService.maxFaultMessageLength),
            "FaultService.maxFaultTimes": Double(FaultService.maxFaultTimes),
            "FaultService.injectedRetryAfter": Double(FaultService.injectedRetryAfter),
            "DeviceService.maxIdentifierLength": Double(DeviceService.maxIdentifierLength),
            "DeviceService.maxSystemLength": Double(DeviceService.maxSystemLength),
            "DeviceService.maxPushTokenLength": Double(DeviceService.maxPushTokenLength),
            "WorldName.maxLength": Double(WorldName.maxLength),
            "WorldLimits.defaultMaxWorlds": Double(ReferenceBackend.WorldLimits.defaultMaxWorlds),
            "WorldLimits.defaultIdleMinutes": Double(ReferenceBackend.WorldLimits.defaultIdleMinutes),
            "WorldRegistry.maxUploadBytes": Double(WorldRegistry.maxUploadBytes),
        ], uniquingKeysWith: { rule, _ in rule })

    static let units: [String: Double] = [
        "s": 1, "min": 60, "h": 3600, "day": 86_400, "days": 86_400, "KiB": 1024,
    ]

    /// A number, its unit if any, up to three words saying what it counts, then the constants it comes from in
    /// brackets: "30 s (`SendLimits.cooldown`)", "5 wrong codes (`A.b`)", "1 to 100 characters (`A.b`, `C.d`)".
    static func quotedNumbers(in text: String) -> [(value: Double, constants: [String], range: Range<String.Index>)] {
        let quote = #/(\d+)\s(?:(s|min|h|days?|KiB)\s)?(?:[a-z]+\s){0,3}\(((?:`\w+\.\w+`(?:, )?)+)\)/#
        return text.matches(of: quote).map { match in
            let unit = match.output.2.map { units[String($0)] ?? .nan } ?? 1
            let constants = match.output.3.matches(of: #/`(\w+\.\w+)`/#).map { String($0.output.1) }
            return (Double(match.output.1)! * unit, constants, match.range)
        }
    }

    @Test func theReaderFindsNumbersAndTheirConstants() {
        let found = Self.quotedNumbers(
            in: "one per 30 s (`A.b`), 1 to 100 characters (`C.d`, `E.f`), 5 (`G.h`), 2 h of wrong codes (`I.j`)")
        #expect(found.map(\.value) == [30, 100, 5, 7200])
        #expect(found.map(\.constants) == [["A.b"], ["C.d", "E.f"], ["G.h"], ["I.j"]])
    }

    @Test func everyNumberIsItsConstantsValue() throws {
        let text = try Self.text()
        let quoted = Self.quotedNumbers(in: text)
        for (value, constants, _) in quoted {
            for name in constants {
                guard let actual = Self.constants[name] else {
                    Issue.record("RULES.md quotes \(name), which this test does not know: add it to `constants`")
                    continue
                }
                #expect(value == actual, "RULES.md says \(value) for \(name), which is \(actual)")
            }
        }
        let quotedNames = Set(quoted.flatMap(\.constants))
        #expect(Set(Self.constants.keys).subtracting(quotedNames).sorted() == [], "constants RULES.md no longer quotes")
        // A constant named in backticks but not right after a number would escape the check above.
        let numbered = quoted.map(\.range)
        for mention in text.matches(of: #/`[A-Z]\w*\.[a-z]\w*`/#)
        where !numbered.contains(where: { $0.contains(mention.range.lowerBound) }) {
            Issue.record("RULES.md names \(mention.output) without its number right before it")
        }
    }
}

/// Issue 46: conform asserts every sentence of an entry a client can observe, and the entry says which ones no client
/// can (mail without a code or link, how things are stored, the server's log), or that there are none.
extension RulesDocumentTests {
    static let unobservable = "Not observable by a client: "

    /// Each rule's entry, by id: the text between its heading and the next.
    static func entries(of text: String) -> [String: String] {
        var entries: [String: String] = [:]
        for section in text.components(separatedBy: "\n### ").dropFirst() {
            let id = String(section.prefix { $0 != "\n" })
            // The last entry of a family runs up to the next family's heading.
            entries[id] = section.components(separatedBy: "\n## ")[0]
        }
        return entries
    }

    /// What is wrong with one entry's "Not observable" line, if anything: there must be one, once, before the roads.
    static func unobservableProblem(in entry: String) -> String? {
        let lines = entry.split(separator: "\n", omittingEmptySubsequences: false)
        let said = lines.indices.filter { lines[$0].hasPrefix(unobservable) }
        guard said.count == 1, let line = said.first else {
            return said.isEmpty ? "has no \"\(unobservable)…\" line" : "says what is not observable \(said.count) times"
        }
        guard lines[line].count > unobservable.count else { return "says nothing after \"\(unobservable)\"" }
        guard let roads = lines.firstIndex(where: { $0.hasPrefix("Roads: ") }), line < roads else {
            return "has its \"\(unobservable)…\" line after its roads"
        }
        return nil
    }

    /// Issue 46: no sentence a client could observe is left unchecked, so the page lists none as such.
    @Test func noObservableSentenceIsLeftUnchecked() throws {
        let words = try Self.text().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let listsUncheckedSentences = words.contains("no check reads back yet")
        #expect(!listsUncheckedSentences)
    }

    @Test func theCheckerFindsAMissingOrMisplacedLine() {
        #expect(Self.unobservableProblem(in: "x\n\n400.\n\nNot observable by a client: nothing.\n\nRoads: a.\n") == nil)
        #expect(Self.unobservableProblem(in: "x\n\n400.\n\nRoads: a.\n") != nil)
        #expect(Self.unobservableProblem(in: "x\n\nRoads: a.\n\nNot observable by a client: the log.\n") != nil)
        #expect(Self.unobservableProblem(in: "x\n\nNot observable by a client: \n\nRoads: a.\n") != nil)
    }

    @Test func everyEntrySaysWhatNoClientCanObserve() throws {
        let entries = Self.entries(of: try Self.text())
        #expect(entries.count == Rule.allCases.count)
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) {
            if let problem = Self.unobservableProblem(in: entry) { Issue.record("RULES.md's \(id) \(problem)") }
        }
    }
}
