import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Log out through `reduce`: the Settings row, seed 002's confirmation, and the session forgotten here
/// at once; telling the backend is the client's business (AccountClient.logOut, LogoutQueueTests).
@Suite struct LogoutFlowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Settings with the user signed in: methods fetched and a live re-auth.
    func onSettings() -> AppState {
        var state = AppState(now: start)
        state.methods = SampleData.everyMethod
        state.methodsFetchedAt = start
        state.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: start + 15 * 60, method: .init(.password))
        return state
    }

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    /// Down to the Log out row, Enter: the confirmation.
    func openConfirmation(_ harness: ReducerHarness) {
        for row in 1...SettingsScreen.logoutRow {
            harness.send(.input(.key(.down))) { $0.top = AnyScreen(SettingsScreen(selection: row)) }
        }
        #expect(text(harness.state).contains("Log out"))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.confirmLogout) }
        #expect(text(harness.state).contains("Are you sure you want to logout?"))
    }

    /// Confirm: signed out here at once, on the sign-in screen that says so; the backend is told in the
    /// background (`Effect.logOut`), and nothing on screen waits for it, whether it answers or not.
    func confirm(_ harness: ReducerHarness) {
        // The sheet opens on Cancel: logging out takes a move up first.
        harness.send(.input(.key(.up))) { $0.overlay = .sheet(Sheet.confirmLogout.onDestructive) }
        harness.send(.input(.key(.enter)), effects: [.logOut]) {
            $0.overlay = nil
            $0.stack = [AnyScreen(SignInScreen(notice: AppRoutes.loggedOutText))]
            $0.methods = nil
            $0.methodsFetchedAt = nil
            $0.reauth = nil
        }
        let done = text(harness.state)
        #expect(done.contains("You're logged out"))
        #expect(done.contains("Continue with phone"))
        #expect(!done.contains("Logging out"))
        #expect(harness.state.pending.isEmpty)
        #expect(harness.state.defects.isEmpty)
    }

    @Test func confirmLogsOutHereAtOnce() {
        let harness = ReducerHarness(onSettings())
        openConfirmation(harness)
        confirm(harness)
    }

    /// Offline, log out is the same: local at once (issue 27: "Logging out…" showed 10 s against a silent
    /// backend).
    @Test func offlineLogOutIsLocalAtOnceToo() {
        var state = onSettings()
        state.isOffline = true
        state.banner = .offline
        state.probeWait = Probe.firstWait
        let harness = ReducerHarness(state)
        openConfirmation(harness)
        confirm(harness)
        #expect(harness.state.banner == .offline)
    }

    @Test func cancelOrEscapeLeavesTheSessionAlone() {
        let harness = ReducerHarness(onSettings())
        openConfirmation(harness)
        harness.send(.input(.key(.down))) {
            var sheet = Sheet.confirmLogout
            sheet.sheet.move(by: 1)
            $0.overlay = .sheet(sheet)
        }
        harness.send(.input(.key(.enter))) { $0.overlay = nil }
        #expect(!text(harness.state).contains("Are you sure you want to logout?"))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.confirmLogout) }
        harness.send(.input(.key(.escape))) { $0.overlay = nil }
        #expect(harness.state.methods == SampleData.everyMethod)
    }
}
