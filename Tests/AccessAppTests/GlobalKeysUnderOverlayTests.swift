import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 48 item 6: the console's keys act from anywhere, as the qa-guide says, also over a bottom sheet or
/// another panel: each opens its panel in the overlay's place.
@Suite struct GlobalKeysUnderOverlayTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The hub with the log-out sheet open, on the reference backend (so the outbox is there).
    static func underASheet() -> AppState {
        var state = SampleData.state([], now: now)
        state.options.hasReferenceBackend = true
        state.overlay = .sheet(.confirmLogout)
        return state
    }

    static func opens(_ key: Key, over state: AppState) -> String? {
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(key)))
        return harness.state.overlay?.base.id
    }

    @Test func overASheetEachConsoleKeyOpensItsPanel() {
        #expect(Self.opens(.control("p"), over: Self.underASheet()) == "palette")
        #expect(Self.opens(.function(3), over: Self.underASheet()) == "journal")
        #expect(Self.opens(.control("o"), over: Self.underASheet()) == "outbox")
        #expect(Self.opens(.function(2), over: Self.underASheet()) == "outbox")
        #expect(Self.opens(.function(4), over: Self.underASheet()) == "spec-notes")
    }

    @Test func overAPanelThatTakesTextTheOthersOpenToo() {
        var journal = Self.underASheet()
        journal.overlay = .journal(JournalPanel())
        #expect(Self.opens(.control("p"), over: journal) == "palette")
        #expect(Self.opens(.function(4), over: journal) == "spec-notes")
    }

    /// The sheet's own keys stay its own, and its help lists the console's keys that act there.
    @Test func theSheetKeepsItsKeysAndItsHelpListsTheConsoles() {
        let state = Self.underASheet()
        #expect(Self.opens(.escape, over: state) == nil)
        let listed = keymap(for: state).hints.flatMap(\.allKeys)
        for key: Key in [.control("p"), .function(3), .control("o"), .function(4)] {
            #expect(listed.contains(key), "\(key) acts over a sheet, so it is listed there")
        }
    }
}
