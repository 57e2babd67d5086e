import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Every screen explains itself: its notes are there, name real seed sections and real operations of
/// the contract with statuses the contract gives them.
@Suite struct SpecNotesTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AccessAPI/openapi.yaml")

    static var screenNames: [String] { Features.screens.map { "\($0)" } }

    static func notes(of name: String) throws -> SpecNotes {
        try #require(Features.screens.first { "\($0)" == name }).specNotes
    }

    /// "METHOD /path" of every operation in the contract, with the statuses it documents. The document
    /// keeps a path per line at two spaces, its methods at four and their statuses at eight under
    /// `responses:`, which is all this reads.
    static func documentedStatuses() throws -> [String: Set<Int>] {
        let text = try String(contentsOf: contract, encoding: .utf8)
        var operations: [String: Set<Int>] = [:]
        var path: String?
        var operation: String?
        var inResponses = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  \"/"), line.hasSuffix("\":") {
                path = String(line.dropFirst(3).dropLast(2))
                operation = nil
            } else if !line.hasPrefix("  ") && !line.isEmpty {
                path = nil
                operation = nil
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                operation = ["GET", "PUT", "POST", "DELETE", "PATCH"].contains(method) ? "\(method) \(path)" : nil
                if let operation { operations[operation] = [] }
                inResponses = false
            } else if operation != nil, line.hasPrefix("      "), !line.hasPrefix("       ") {
                inResponses = line == "      responses:"
            } else if let current = operation, inResponses, line.hasPrefix("        \""), !line.hasPrefix("         "),
                let status = Int(line.dropFirst(9).prefix(3))
            {
                operations[current, default: []].insert(status)
            }
        }
        return operations
    }

    @Test(arguments: screenNames)
    func everyScreenSaysWhy(name: String) throws {
        let notes = try Self.notes(of: name)
        #expect(!notes.why.isEmpty, "\(name) has no why")
        #expect(
            notes.why.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, "\(name): an empty paragraph")
    }

    /// The reader of the contract finds what the document says, so the checks below can fail.
    @Test func theContractReaderFindsOperationsAndTheirStatuses() throws {
        let statuses = try Self.documentedStatuses()
        #expect(statuses.count >= 40)
        #expect(statuses["POST /auth/phone/request-otp"] == [202, 400, 413, 401, 403, 409, 422, 429])
        #expect(statuses["DELETE /me"] == [200, 401, 403, 409])
        #expect(statuses["POST /auth/phone/request-otps"] == nil)
    }

    @Test(arguments: screenNames)
    func everyCallIsAnOperationOfTheContractWithItsStatuses(name: String) throws {
        let documented = try Self.documentedStatuses()
        for call in try Self.notes(of: name).calls {
            let operation = "\(call.method.rawValue) \(call.path)"
            let statuses = documented[operation]
            #expect(statuses != nil, "\(name): \(operation) is not in openapi.yaml")
            #expect(!call.answers.isEmpty, "\(name): \(operation) lists no answer")
            for answer in call.answers {
                #expect((100...599).contains(answer.status), "\(name): \(operation) answers \(answer.status)")
                #expect(
                    statuses?.contains(answer.status) ?? true,
                    "\(name): \(operation) does not document \(answer.status) (it has \(statuses?.sorted() ?? []))")
                #expect(!answer.then.isEmpty, "\(name): \(operation) \(answer.status) says nothing")
            }
            let repeated = Dictionary(grouping: call.answers, by: \.status).filter { $0.value.count > 1 }.keys
            #expect(repeated.isEmpty, "\(name): \(operation) lists \(repeated.sorted()) twice")
        }
    }

    /// The titles cannot be checked against ../shared/seeds/ (outside the repository): against the copy
    /// of its headings that scripts/seed-headings.py made.
    @Test(arguments: SeedReference.allCases)
    func everySeedReferenceIsAHeadingOfItsSeed(reference: SeedReference) throws {
        let headings = try #require(SeedHeadings.byFile[reference.seed.rawValue])
        let titles = headings.map { $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) }
        #expect(titles.contains(reference.title), "\(reference.title) is not a heading of \(reference.seed.rawValue)")
    }

    @Test func everySeedIsReferencedByAScreen() {
        let used = Set(Features.screens.flatMap { $0.specNotes.seeds.map(\.seed) })
        #expect(used == Set(Seed.allCases))
    }

    // MARK: - The panel

    @Test func f4OpensTheNotesOfTheTopScreenAndEscClosesThem() {
        let harness = ReducerHarness(SampleData.state([EmailPasswordScreen()], now: Self.start))
        harness.send(.input(.key(.function(4)))) {
            $0.overlay = .specNotes(SpecNotesPanel(screen: "email-password", notes: EmailPasswordScreen.specNotes))
        }
        harness.send(.input(.key(.escape))) { $0.overlay = nil }
    }

    @Test func f4OpensTheNotesOnAScreenThatTakesText() throws {
        let entry = try #require(Gallery.entry("enter-phone:change"))
        let harness = ReducerHarness(entry.makeState(Self.start))
        #expect(harness.state.top.base.takesText)
        harness.send(.input(.key(.function(4)))) {
            $0.overlay = .specNotes(SpecNotesPanel(screen: "enter-phone", notes: EnterPhoneScreen.specNotes))
        }
        harness.send(.input(.key(.function(4)))) { $0.overlay = nil }
    }

    @Test func theNotesScrollAndStopAtTheirEnd() throws {
        var state = SampleData.state([], now: Self.start)
        state.size = .minimum
        let panel = SpecNotesPanel(screen: "enter-code", notes: EnterCodeScreen.specNotes)
        let last = panel.lastScroll(in: .minimum)
        try #require(last > 12)
        state.overlay = .specNotes(panel)
        let harness = ReducerHarness(state)
        func scrolled(_ scroll: Int) -> AnyOverlay {
            .specNotes(SpecNotesPanel(screen: "enter-code", notes: EnterCodeScreen.specNotes, scroll: scroll))
        }
        harness.send(.input(.key(.down))) { $0.overlay = scrolled(1) }
        // A page is the content's height (6 rows at 40×12) less the one line kept in view.
        harness.send(.input(.key(.pageDown))) { $0.overlay = scrolled(6) }
        harness.send(.input(.key(.pageUp))) { $0.overlay = scrolled(1) }
        harness.send(.input(.key(.up))) { $0.overlay = scrolled(0) }
        harness.send(.input(.key(.up)))
        for next in 1...(last + 2) {
            harness.send(.input(.key(.down))) { $0.overlay = scrolled(min(next, last)) }
        }
    }

    @Test func thePanelShowsTheScreenItsSectionsAndTheKeys() {
        var state = SampleData.state([], now: Self.start)
        state.overlay = .specNotes(SpecNotesPanel(over: state.top))
        let text = render(state, size: Size(cols: 80, rows: 60)).text()
        #expect(text.contains("Spec notes · hub"))
        #expect(text.contains("Why"))
        #expect(text.contains("GET /me/auth-methods"))
        #expect(keymap(for: state).hints.contains { $0.keys == [.escape, .function(4)] })
    }

    @Test func inTheGalleryPreviewTheNotesAreThePreviewedScreens() {
        var state = AppState(now: Self.start)
        state.stack += [AnyScreen(GalleryScreen()), AnyScreen(PreviewScreen(entryID: "delete-account:default"))]
        #expect(SpecNotesPanel(over: state.top).screen == "delete-account")
    }

    @Test func helpListsF4ButTheFooterDoesNot() throws {
        let state = SampleData.state([], now: Self.start)
        let binding = try #require(keymap(for: state).hint(for: .function(4)))
        #expect(!binding.inFooter)
    }
}
