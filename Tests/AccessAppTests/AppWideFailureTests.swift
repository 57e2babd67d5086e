import AccessAPI
import AccessAppTesting
import Foundation
import Testing

@testable import AccessApp

/// The failures that concern the whole app whoever asked (`AppWideFailure`): each acts when its one guard
/// holds and not otherwise. The hub's reload is the call that fails; the hub itself only shows the message.
@Suite struct AppWideFailureTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let limited = APIError.server(status: 403, code: ErrorCode.limitedAccess.rawValue, message: "Limited")
    static let secondFactor = APIError.server(
        status: 403, code: ErrorCode.secondFactorRequired.rawValue, message: "Second factor required")
    static let elsewhere = APIError.signedOutElsewhere(message: "Signed out from another device")

    /// The hub reloading its methods, signed in; `switching` names a scenario switch under way.
    static func hubReloading(switching: String? = nil) -> AppState {
        var state = SampleData.state([HubScreen(isLoading: true)], now: now)
        state.console.switching = switching
        return state.topWaiting(LoadAuthMethods.self, HubScreen.Reply.methods)
    }

    /// The hub after its reload failed with `failure`, having done nothing else.
    static func hubShowing(_ failure: APIError) -> (inout AppState) -> Void {
        { $0.top = AnyScreen(HubScreen(loadError: failure.message)) }
    }

    @Test func theTableHasOneRowForEachFailureThatConcernsEveryScreen() {
        #expect(AppWideFailure.allCases.map(\.commands).count == 6)
        #expect(AppWideFailure.offline.matches(.offline(reason: "test")))
        #expect(AppWideFailure.grantRefused.matches(.reauthRequired(message: "Verify it's you")))
        #expect(AppWideFailure.limitedAccess.matches(Self.limited))
        #expect(AppWideFailure.secondFactorRequired.matches(Self.secondFactor))
        #expect(AppWideFailure.signedOut.matches(.signedOut))
        #expect(AppWideFailure.signedOutElsewhere.matches(Self.elsewhere))
        #expect(
            AppWideFailure.allCases.filter { $0.matches(.reauthRequired(message: "Verify it's you")) } == [
                .grantRefused
            ])
    }

    // MARK: - Each one acts when its guard holds

    @Test func offlineRaisesTheBanner() {
        let harness = ReducerHarness(Self.hubReloading())
        harness.send(.failure(.offline(reason: "test")), effects: [.firstProbe]) {
            $0.top = AnyScreen(HubScreen())
            $0.wentOffline()
        }
        harness.expectRunning(.firstProbe)
    }

    /// Issue 48 item 19: a call that timed out reached a backend that is there, only slow: no offline banner (that
    /// stays for no connection) and no probe; the screen says it timed out, after the client's time-out.
    @Test func aTimedOutCallSaysSoAndRaisesNoBanner() {
        let timedOut = APIError.timedOut(after: .seconds(3))
        let harness = ReducerHarness(Self.hubReloading())
        harness.send(.failure(timedOut), effects: []) {
            Self.hubShowing(timedOut)(&$0)
        }
        #expect(!harness.state.isOffline)
        #expect(render(harness.state, size: .standard).text().contains("The request timed out after 3 s. Try again."))
        #expect(!AppWideFailure.allCases.contains { $0.matches(timedOut) })
    }

    @Test func aRefusedGrantIsForgotten() {
        var state = Self.hubReloading()
        state.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: Self.now + 900, method: .init(.password))
        let refused = APIError.reauthRequired(message: "Verify it's you first.")
        ReducerHarness(state).send(.failure(refused)) {
            Self.hubShowing(refused)(&$0)
            $0.reauth = nil
        }
    }

    @Test func limitedAccessShowsItsSheet() {
        let harness = ReducerHarness(Self.hubReloading())
        harness.send(.failure(Self.limited)) {
            Self.hubShowing(Self.limited)(&$0)
            $0.overlay = .sheet(.limitedAccess)
        }
    }

    @Test func secondFactorRequiredAsksForTheSecondStep() {
        let harness = ReducerHarness(Self.hubReloading())
        harness.send(.failure(Self.secondFactor)) {
            $0.stack = [AppRoutes.secondFactor]
        }
    }

    @Test func signedOutAsksToSignInAgain() {
        let harness = ReducerHarness(Self.hubReloading())
        harness.send(.failure(.signedOut), effects: [.signOutLocally]) {
            $0.forgetUser()
            $0.stack = [AppRoutes.sessionExpired]
        }
    }

    @Test func signedOutElsewhereSaysWhy() {
        let harness = ReducerHarness(Self.hubReloading())
        harness.send(.failure(Self.elsewhere), effects: [.signOutLocally]) {
            $0.forgetUser()
            $0.stack = [AppRoutes.signedOutElsewhere]
        }
    }

    /// Issue 49 item 3: a session the backend ended for a reason it gave is signed out saying that reason in words,
    /// not "Session expired, please login"; a reason this build does not know reads as the generic copy.
    @Test func aSessionEndedForAReasonSaysItInWords() {
        let harness = ReducerHarness(Self.hubReloading())
        harness.send(.failure(.sessionEnded(reason: "password_changed")), effects: [.signOutLocally]) {
            $0.forgetUser()
            $0.stack = [AppRoutes.sessionEnded(reason: "password_changed")]
        }
        let screen = render(harness.state, size: .standard).text()
        #expect(screen.contains("You were signed out because your password was changed on another device."))
        #expect(!screen.contains("Session expired, please login"))

        let unknown = ReducerHarness(Self.hubReloading())
        unknown.send(.failure(.sessionEnded(reason: "moon_phase")), effects: [.signOutLocally]) {
            $0.forgetUser()
            $0.stack = [AppRoutes.sessionEnded(reason: "moon_phase")]
        }
        #expect(render(unknown.state, size: .standard).text().contains("Session expired, please login"))
    }

    // MARK: - A switch under way: the session went with the old world, the switch signs in again

    @Test func duringASwitchNoneOfTheSessionsFailuresActs() {
        for failure in [Self.limited, Self.secondFactor, .signedOut, Self.elsewhere] {
            let harness = ReducerHarness(Self.hubReloading(switching: "coach"))
            // Before the guard was one for all four, the two-factor screen, the sheet and "signed out from another
            // device" (with its sign-out, which would have forgotten the session the switch signs in with) came.
            harness.send(.failure(failure), Self.hubShowing(failure))
        }
    }

    @Test func duringASwitchOfflineStillRaisesTheBanner() {
        let harness = ReducerHarness(Self.hubReloading(switching: "coach"))
        harness.send(.failure(.offline(reason: "test")), effects: [.firstProbe]) {
            $0.top = AnyScreen(HubScreen())
            $0.wentOffline()
        }
        harness.expectRunning(.firstProbe)
    }

    // MARK: - Where acting would change nothing, or the call was not the session's

    @Test func alreadyOnTheSecondStepItIsNotAskedAgain() {
        var state = AppState(root: AuthenticatorCodeScreen(), now: Self.now)
        state.pending[.inFlight] = state.waiting(.screen(depth: 0), VerifySecondFactor.self)
        #expect(AppWideFailure.secondFactorRequired.holds(for: state.pending[.inFlight]!, in: state) == false)
        #expect(
            AppWideFailure.secondFactorRequired.holds(
                for: Self.hubReloading().pending[.inFlight]!, in: Self.hubReloading()))
    }

    @Test func alreadySignedOutNobodyIsSignedOutAgain() {
        var state = AppState(root: WelcomeScreen(), now: Self.now)
        state.pending[.inFlight] = state.waiting(.screen(depth: 0), QASignIn.self)
        for row in [AppWideFailure.signedOut, .signedOutElsewhere] {
            #expect(row.holds(for: state.pending[.inFlight]!, in: state) == false)
        }
    }

    @Test func theConsolesCallsCarryNoSession() {
        for failure in [Self.limited, Self.secondFactor, .signedOut, Self.elsewhere] {
            var state = SampleData.state([], now: Self.now)
            state.pending[.inFlight] = state.waiting(.console, Endpoint.AdminListScenarios.self, ConsoleReply.scenarios)
            // The admin API answered as if a session had ended: nothing of the user's goes.
            ReducerHarness(state).send(.failure(failure))
        }
    }

    @Test func theJournalSaysNothingOfTheBackend() {
        var state = SampleData.state([], now: Self.now)
        state.overlay = .journal(JournalPanel())
        let journal = PendingCall(.overlay, Call(LoadJournal(), JournalPanel.Reply.records))
        #expect(!AppWideFailure.offline.holds(for: journal, in: state))
        let outbox = PendingCall(.overlay, Call(LoadOutbox(), OutboxPanel.Reply.loaded))
        #expect(AppWideFailure.offline.holds(for: outbox, in: state))
    }
}
