import Foundation
import Testing

@testable import AccessApp

/// The harness must fail whenever a test leaves something unasserted.
@Suite struct ReducerHarnessTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anUndescribedStateChangeFails() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.down)))  // moves the selection, but the test says nothing
        }
    }

    @Test func aWronglyDescribedStateChangeFails() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.down))) { $0.top = .settings(.init(selection: 0)) }
        }
    }

    @Test func anUnlistedEffectFails() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.character("q"))))
        }
    }

    @Test func aTimerActionLeftUnreceivedFails() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(
            .input(.key(.enter)), effects: [.after(seconds: Toast.lifetime, action: .toastExpired, id: .toast)]
        ) {
            $0.toast = Toast(message: "Account access arrives with the hub screen.", expiresAt: self.start + Toast.lifetime)
        }
        harness.advance(by: Toast.lifetime)
        withKnownIssue { harness.finish() }
    }

    @Test func aPendingTimerAtTheEndFails() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(
            .input(.key(.enter)), effects: [.after(seconds: Toast.lifetime, action: .toastExpired, id: .toast)]
        ) {
            $0.toast = Toast(message: "Account access arrives with the hub screen.", expiresAt: self.start + Toast.lifetime)
        }
        withKnownIssue { harness.finish() }
    }

    @Test func aFullyDescribedRunPasses() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.key(.down))) { $0.top = .settings(.init(selection: 1)) }
        harness.send(.input(.key(.up))) { $0.top = .settings(.init(selection: 0)) }
        harness.finish()
    }

    @Test func lineDiffShowsOnlyChangedLines() {
        #expect(lineDiff("a\nb\nc", "a\nB\nc") == "− b\n+ B")
        #expect(lineDiff("a", "a\nextra") == "+ extra")
    }
}
