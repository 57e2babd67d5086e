import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// The harness must fail whenever a test leaves something unasserted.
@Suite struct ReducerHarnessTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A hub with every method and the offline flag set, so Enter on a row shows a toast.
    func offlineHub() -> AppState {
        var state = SampleData.state([], now: start)
        state.isOffline = true
        return state
    }

    let offlineToast = "You're offline. Changes are off until you reconnect."
    let toastTimer = Effect.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)

    @Test func anUndescribedStateChangeFails() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.down)))  // moves the selection, but the test says nothing
        }
    }

    @Test func aWronglyDescribedStateChangeFails() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.down))) { $0.top = AnyScreen(SettingsScreen(selection: 0)) }
        }
    }

    @Test func anUnlistedEffectFails() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.character("q"))))
        }
    }

    @Test func aTimerActionLeftUnreceivedFails() {
        let harness = ReducerHarness(offlineHub())
        harness.send(.input(.key(.enter)), effects: [toastTimer]) {
            $0.toast = Toast(self.offlineToast, shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        withKnownIssue { harness.finish() }
    }

    @Test func aPendingTimerAtTheEndFails() {
        let harness = ReducerHarness(offlineHub())
        harness.send(.input(.key(.enter)), effects: [toastTimer]) {
            $0.toast = Toast(self.offlineToast, shownAt: self.start)
        }
        withKnownIssue { harness.finish() }
    }

    @Test func aFullyDescribedRunPasses() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(SettingsScreen(selection: 1)) }
        harness.send(.input(.key(.up))) { $0.top = AnyScreen(SettingsScreen(selection: 0)) }
        harness.finish()
    }

    @Test func lineDiffShowsOnlyChangedLines() {
        #expect(lineDiff("a\nb\nc", "a\nB\nc") == "− b\n+ B")
        #expect(lineDiff("a", "a\nextra") == "+ extra")
    }
}
