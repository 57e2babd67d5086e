import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// The first screen while the embedded backend starts (issue 34 item 1) answers keys at once and keeps them for
/// the app's state once the backend is up.
@Suite struct StartingScreenTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func settings() -> StartingScreen {
        var state = AppState(root: SettingsScreen(), now: start)
        state.size = Size(cols: 100, rows: 30)
        return StartingScreen(state)
    }

    @Test func aKeyActsAtOnceAndIsKept() {
        var starting = settings()
        starting.take(.key(.down))
        starting.take(.key(.enter))
        #expect(starting.state.top.base.id == "gallery")
        #expect(starting.pending == [.key(.down), .key(.enter)])
        #expect(!starting.quits)
    }

    /// Account access needs the backend: its screen shows, waiting, and the fetch is left to the app's state.
    @Test func aKeyThatNeedsTheBackendOpensItsScreenWaiting() {
        var starting = settings()
        starting.take(.key(.enter))
        #expect(starting.state.top.base.id == "hub")
        #expect(starting.state.methods == nil)
    }

    @Test func qQuits() {
        var starting = settings()
        starting.take(.key(.character("q")))
        #expect(starting.quits)
    }

    @Test func keysPastTheLimitAreNeitherTakenNorKept() {
        var starting = settings()
        for _ in 0..<(StartingScreen.pendingLimit + 6) { starting.take(.key(.down)) }
        #expect(starting.pending.count == StartingScreen.pendingLimit)
    }
}
