import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// The harness must fail whenever a test leaves something unasserted, and check the end of a test by
/// itself: each harness below that ends with something left over is made and released inside
/// `withKnownIssue`, and nothing there calls anything to end it.
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

    /// Enter on the offline hub: the toast and its timer.
    func showToast(_ harness: ReducerHarness, at time: Date) {
        harness.send(.input(.key(.enter)), effects: [toastTimer]) {
            $0.toast = Toast(self.offlineToast, shownAt: time)
        }
    }

    /// Whether an issue's comments say every one of `words`.
    static func says(_ issue: Issue, _ words: String...) -> Bool {
        let text = issue.comments.map(\.rawValue).joined(separator: "\n")
        return words.allSatisfy(text.contains)
    }

    @Test func anUndescribedStateChangeFails() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.down)))  // moves the selection, but the test says nothing
        } matching: {
            Self.says($0, "differs from the one the test described")
        }
    }

    /// The difference is shown as SnapshotSupport's line diff of the two states' dumps: numbered lines,
    /// the expected one marked -, the actual one +.
    @Test func aWronglyDescribedStateChangeShowsTheLinesThatDiffer() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.down))) { $0.top = AnyScreen(SettingsScreen(selection: 0)) }
        } matching: { issue in
            let lines = issue.comments.flatMap { $0.rawValue.split(separator: "\n") }
            return lines.contains { $0.hasPrefix("-") && $0.contains("│") && $0.hasSuffix("selection: 0") }
                && lines.contains { $0.hasPrefix("+") && $0.contains("│") && $0.hasSuffix("selection: 1") }
        }
    }

    @Test func anUnlistedEffectFails() {
        let harness = ReducerHarness(AppState(now: start))
        withKnownIssue {
            harness.send(.input(.key(.character("q"))))
        } matching: {
            Self.says($0, "Effects of")
        }
    }

    /// A timer fired and its action was not received: the next `send` says so.
    @Test func aTimerActionLeftUnreceivedFailsTheNextSend() {
        let harness = ReducerHarness(offlineHub())
        showToast(harness, at: start)
        harness.advance(by: Toast.defaultDuration)
        withKnownIssue {
            harness.send(.input(.key(.up)))
        } matching: {
            Self.says($0, "were not received")
        }
    }

    /// ... and when the test ends there, the end of the test says so: nobody calls anything.
    @Test func aTimerActionLeftUnreceivedIsReportedWhenTheTestEnds() {
        withKnownIssue {
            let harness = ReducerHarness(offlineHub())
            showToast(harness, at: start)
            harness.advance(by: Toast.defaultDuration)
        } matching: {
            Self.says($0, "were never received", "toastExpired")
        }
    }

    @Test func aTimerStillSetIsReportedWhenTheTestEnds() {
        withKnownIssue {
            let harness = ReducerHarness(offlineHub())
            showToast(harness, at: start)
            harness.advance(by: Toast.defaultDuration - 1)
        } matching: {
            Self.says($0, "timers still set: [.toast: toastExpired in 1.0 s]")
        }
    }

    /// The report points at the line that made the harness, in the test that made it.
    @Test func theEndOfTestReportNamesWhereTheHarnessWasMade() {
        let line = #line + 2
        withKnownIssue {
            let harness = ReducerHarness(offlineHub())
            showToast(harness, at: start)
        } matching: {
            Self.says($0, "timers still set") && $0.sourceLocation?.line == line
                && $0.sourceLocation?.fileName == "ReducerHarnessTests.swift"
        }
    }

    @Test func aTimerThatFiredAndWasReceivedIsAccountedFor() {
        let harness = ReducerHarness(offlineHub())
        showToast(harness, at: start)
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    /// A timer meant to outlive the test is asserted, with the time it has left.
    @Test func aTimerAssertedToKeepRunningIsAccountedFor() {
        let harness = ReducerHarness(offlineHub())
        showToast(harness, at: start)
        harness.advance(by: 1)
        harness.expectRunning(.after(seconds: Toast.defaultDuration - 1, action: .toastExpired, id: .toast))
    }

    @Test func aTimerAssertedWithTheWrongTimeLeftFails() {
        let harness = ReducerHarness(offlineHub())
        showToast(harness, at: start)
        harness.advance(by: 1)
        withKnownIssue {
            harness.expectRunning(toastTimer)
        } matching: {
            Self.says($0, "Timers set differ", "expected: [.toast: toastExpired in 3.0 s]", "toastExpired in 2.0 s")
        }
        harness.advance(by: 2)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    @Test func aTimerNotAmongThoseAssertedFails() {
        let harness = ReducerHarness(offlineHub())
        showToast(harness, at: start)
        withKnownIssue {
            harness.expectRunning()
        } matching: {
            Self.says($0, "Timers set differ", "expected: []")
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    /// What `expectRunning` accounted for is the timer as it was: one set again later is new.
    @Test func aTimerSetAgainAfterItWasAssertedMustBeAccountedForAgain() {
        withKnownIssue {
            let harness = ReducerHarness(offlineHub())
            showToast(harness, at: start)
            harness.expectRunning(toastTimer)
            harness.advance(by: 1)
            showToast(harness, at: start + 1)
        } matching: {
            Self.says($0, "timers still set: [.toast: toastExpired in \(Toast.defaultDuration) s]")
        }
    }

    @Test func aFullyDescribedRunPasses() {
        let harness = ReducerHarness(AppState(now: start))
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(SettingsScreen(selection: 1)) }
        harness.send(.input(.key(.up))) { $0.top = AnyScreen(SettingsScreen(selection: 0)) }
    }

    // MARK: - exhaustivity: .off (issue 47 item 4)

    /// Off, a change the test does not mention passes; one it mentions must be what happened.
    @Test func offChecksOnlyTheChangesTheTestWrites() {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.down)))
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(SettingsScreen(selection: 2)) }
        withKnownIssue {
            harness.send(.input(.key(.up))) { $0.top = AnyScreen(SettingsScreen(selection: 0)) }
        } matching: { issue in
            let lines = issue.comments.flatMap { $0.rawValue.split(separator: "\n") }
            return lines.contains { $0.hasPrefix("-") && $0.hasSuffix("selection: 0") }
                && lines.contains { $0.hasPrefix("+") && $0.hasSuffix("selection: 1") }
        }
    }

    /// Off, effects are compared when the test lists them, and returned either way.
    @Test func offChecksEffectsOnlyWhenListed() {
        let harness = ReducerHarness(offlineHub(), exhaustivity: .off)
        #expect(harness.send(.input(.key(.enter))) == [toastTimer])
        withKnownIssue {
            harness.send(.input(.key(.enter)), effects: [])
        } matching: {
            Self.says($0, "Effects of")
        }
    }

    /// Off, time runs the timers as the app would: the toast goes when its time is up, with nothing to
    /// receive, and a timer still set at the end is not reported.
    @Test func offRunsTheTimersThatComeDueAndReportsNothingAtTheEnd() {
        let harness = ReducerHarness(offlineHub(), exhaustivity: .off)
        showToast(harness, at: start)
        harness.advance(by: Toast.defaultDuration - 1)
        #expect(harness.state.toast != nil)
        harness.advance(by: 1)
        #expect(harness.state.toast == nil)
        #expect(harness.now == start + Toast.defaultDuration)
        showToast(harness, at: start + Toast.defaultDuration)
    }

    /// Exhaustive is the default: the same toast left set is reported (the test above would fail on).
    @Test func onIsTheDefault() {
        #expect(ReducerHarness(offlineHub()).exhaustivity == .on)
    }
}
