import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Log out through `reduce`: the Settings row, seed 002's confirmation, the request, and the
/// session forgotten here whatever the server answered (best effort).
@Suite struct LogoutFlowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)

    /// Settings with the user signed in: methods fetched and a live re-auth.
    func onSettings() -> AppState {
        var state = AppState(now: start)
        state.methods = SampleData.everyMethod
        state.methodsFetchedAt = start
        state.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: start + 15 * 60, method: .password)
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

    /// Confirm, and the request goes out from the "Logging out…" screen, alone on the stack.
    func confirm(_ harness: ReducerHarness) {
        // The sheet opens on Cancel: logging out takes a move up first.
        harness.send(.input(.key(.up))) { $0.overlay = .sheet(Sheet.confirmLogout.onDestructive) }
        harness.send(.input(.key(.enter)), effects: [.request(Logout(), id: 1), tick]) {
            $0.overlay = nil
            $0.stack = [AnyScreen(LoggedOutScreen())]
            $0.topAwaits(1, LoggedOutScreen.Reply.logout)
            $0.clockTicking = true
        }
        #expect(text(harness.state).contains("Logging out…"))
    }

    /// Whatever came back, the user is signed out here and the sign-in screen says so.
    func expectSignedOut(_ harness: ReducerHarness, after reply: Action) {
        harness.send(reply, effects: [.signOutLocally]) {
            $0.stack = [AnyScreen(SignInScreen(notice: LoggedOutScreen.loggedOutText))]
            $0.methods = nil
            $0.methodsFetchedAt = nil
            $0.reauth = nil
            // No answer at all: the app says it is offline, as after any request.
            if case .response(_, .failure(.offline)) = reply {
                $0.isOffline = true
                $0.banner = .offline
            }
        }
        let done = text(harness.state)
        #expect(done.contains("You're logged out"))
        #expect(done.contains("Continue with phone"))
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
        #expect(harness.state.defects.isEmpty)
    }

    @Test func confirmLogsOutAndSignsOutHere() {
        let harness = ReducerHarness(onSettings())
        openConfirmation(harness)
        confirm(harness)
        expectSignedOut(harness, after: .reply(Acknowledged(), to: RequestID(1)))
    }

    @Test(arguments: [
        APIError.offline(reason: "connection refused"),
        APIError.server(status: 503, code: "internal", message: "Something went wrong."),
        APIError.signedOut,
    ])
    func noAnswerOrAFailureStillSignsOutHere(failure: APIError) {
        let harness = ReducerHarness(onSettings())
        openConfirmation(harness)
        confirm(harness)
        expectSignedOut(harness, after: .failure(failure, to: RequestID(1)))
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
