import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 30: the Active sessions screen, its sheets and "Verify it's you", and the app another device
/// signed out.
@Suite struct ActiveSessionsScreenTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    var sessions: [ActiveSession] { ActiveSessionsScreen.sampleSessions(now: now) }

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    @Test func theHubRowOpensTheListWhichLoads() {
        var state = SampleData.state([], now: now)
        state.top = AnyScreen(HubScreen(selection: 5))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.enter)), effects: [.request(LoadSessions(), id: 1)]) {
            $0.stack.append(AnyScreen(ActiveSessionsScreen()))
            $0.topAwaits(1, LoadSessions.self)
        }
        harness.send(.reply(sessions, to: RequestID(1))) {
            $0.top = AnyScreen(ActiveSessionsScreen(sessions: self.sessions, isLoading: false))
            $0.sessions = self.sessions  // kept for the list opened again offline
        }
        let screen = text(harness.state)
        #expect(screen.contains("Terminal"))
        #expect(screen.contains("This device"))
        #expect(screen.contains("iOS 18.1 · Phone code · active 5 min ago"))
        #expect(screen.contains("active 40 days ago"))
        #expect(screen.contains("Sign out all other devices"))
        // This device first, then the others in the backend's order (newest first).
        let rows = ["Terminal", "Nino's iPhone", "Pixel 8", "Firefox on Mac", "Old iPad"]
        let positions = rows.compactMap { screen.range(of: $0)?.lowerBound }
        #expect(positions.count == rows.count)
        #expect(positions == positions.sorted())
    }

    /// The app's own QA sign-in names no device: its row says "This device" once, not as title and badge.
    @Test func thisDeviceWithoutANameIsMarkedOnce() {
        var unnamed = sessions
        unnamed[0].device = nil
        var state = SampleData.state([], now: now)
        state.stack.append(AnyScreen(ActiveSessionsScreen(sessions: unnamed, isLoading: false)))
        let screen = text(state)
        #expect(screen.components(separatedBy: "This device").count == 2, "\(screen)")
        #expect(text(state).contains("active now"))
    }

    @Test func activeAgoCountsOnTheAppClock() {
        let seen = now.addingTimeInterval(-5 * 60)
        #expect(ActiveSessionsScreen.activeAgo(seen, now: now) == "active 5 min ago")
        #expect(ActiveSessionsScreen.activeAgo(now.addingTimeInterval(-59), now: now) == "active now")
        #expect(ActiveSessionsScreen.activeAgo(now.addingTimeInterval(-3600), now: now) == "active 1 h ago")
        #expect(ActiveSessionsScreen.activeAgo(now.addingTimeInterval(-86400), now: now) == "active 1 day ago")
    }

    /// Issue 30: signing one device out goes through "Verify it's you" like signing them all out.
    @Test func enterOnAnotherDeviceOpensTheSheetVerifiesAndSignsItOut() {
        var screen = ActiveSessionsScreen.sample(now: now, selection: 1)
        let state = SampleData.state([screen], now: now)
        let context = state.context
        #expect(screen.perform(.open, context) == [.showSheet(.signOutSession(sessions[1], context))])
        let sheet = Sheet.signOutSession(sessions[1], context)
        #expect(sheet.sheet.title == "Sign out Nino's iPhone?")
        // No grant: the picker, for this device; a grant in its window: straight on.
        let flow = SignOutSessionFlow(id: "sf_iphone", deviceName: "Nino's iPhone")
        #expect(sheet.actions[0] == [.push(ReauthPickerScreen(flow: AnyFlow(flow)))])
        #expect(flow.pickerExplanation == "To sign out Nino's iPhone, confirm with one of your sign-in methods.")
        var verified = state
        verified.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 900, method: .init(.password))
        #expect(Sheet.signOutSession(sessions[1], verified.context).actions[0] == [.continueFlow(flow)])
        #expect(
            flow.start(verified.context) == [
                .returnTo(ActiveSessionsScreen.self, with: .signOutSession(id: "sf_iphone"))
            ])
        let call = screen.receiveChoice(.signOutSession(id: "sf_iphone"), verified.context)
        #expect(
            call == [
                .call(Endpoint.SignOutSession(id: "sf_iphone", reauthToken: "ra_fixture")) {
                    ActiveSessionsScreen.Reply.signedOut("sf_iphone", $0)
                }
            ])
        let after = screen.receive(.signedOut("sf_iphone", .success(Acknowledged())), context)
        #expect(
            after == [
                .showToast("Nino's iPhone was signed out."), .call(LoadSessions(), ActiveSessionsScreen.Reply.loaded),
            ])
    }

    @Test func thisDeviceIsNotOfferedItIsLogOut() {
        var screen = ActiveSessionsScreen.sample(now: now, selection: 0)
        let context = SampleData.state([screen], now: now).context
        #expect(screen.perform(.open, context) == [.showToast(ActiveSessionsScreen.thisDeviceText)])
    }

    @Test func signingTheOthersOutGoesThroughVerifyItsYou() {
        var screen = ActiveSessionsScreen.sample(now: now, selection: sessions.count)
        let state = SampleData.state([screen], now: now)
        #expect(screen.perform(.open, state.context) == [.showSheet(.confirmSignOutOthers(state.context))])
        // No grant: the picker; a grant in its window: straight on.
        #expect(
            Sheet.confirmSignOutOthers(state.context).actions[0] == [.push(ReauthPickerScreen(flow: .signOutOthers))])
        var verified = state
        verified.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 900, method: .init(.password))
        #expect(Sheet.confirmSignOutOthers(verified.context).actions[0] == [.continueFlow(.signOutOthers)])
        let call = screen.receiveChoice(.signOutOthers, verified.context)
        #expect(
            call == [
                .call(
                    Endpoint.SignOutOtherSessions(reauthToken: "ra_fixture"), ActiveSessionsScreen.Reply.othersSignedOut
                )
            ]
        )
    }

    /// Issue 45 item 6 bound a grant to the session that earned it, so an email-change link (a new session)
    /// leaves the app holding a grant the backend refuses. Refused, it is forgotten before the screen answers,
    /// and the sign-out goes back through "Verify it's you" instead of stopping on the message.
    @Test func aRefusedGrantIsForgottenAndSigningOutVerifiesAgain() {
        let toast = Effect.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)
        var others = SampleData.state([ActiveSessionsScreen.sample(now: now, selection: sessions.count)], now: now)
        others.reauth = ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 900, method: .init(.password))
        others.clockTicking = true
        others = others.topWaiting(Endpoint.SignOutOtherSessions.self, ActiveSessionsScreen.Reply.othersSignedOut)
        let refusedOthers = ReducerHarness(others)
        refusedOthers.send(.failure(.reauthRequired(message: "Verify it's you first.")), effects: [toast]) {
            $0.reauth = nil
            $0.stack.append(AnyScreen(ReauthPickerScreen(flow: .signOutOthers)))
            $0.toast = Toast(ActiveSessionsScreen.verifyAgainText, shownAt: now)
        }
        refusedOthers.expectRunning(toast)

        var one = SampleData.state([ActiveSessionsScreen.sample(now: now, selection: 1)], now: now)
        one.reauth = others.reauth
        one.clockTicking = true
        one = one.topWaiting(Endpoint.SignOutSession.self) { ActiveSessionsScreen.Reply.signedOut("sf_iphone", $0) }
        let flow = SignOutSessionFlow(id: "sf_iphone", deviceName: "Nino's iPhone")
        let refusedOne = ReducerHarness(one)
        refusedOne.send(.failure(.reauthRequired(message: "Verify it's you first.")), effects: [toast]) {
            $0.reauth = nil
            $0.stack.append(AnyScreen(ReauthPickerScreen(flow: AnyFlow(flow))))
            $0.toast = Toast(ActiveSessionsScreen.verifyAgainText, shownAt: now)
        }
        refusedOne.expectRunning(toast)
    }

    @Test func offlineTheListStaysReadOnly() {
        var screen = ActiveSessionsScreen.sample(now: now, selection: 1)
        var state = SampleData.state([screen], now: now)
        state.isOffline = true
        #expect(screen.receive(.loaded(.failure(.offline(reason: "refused"))), state.context) == [])
        #expect(screen.sessions == sessions)
        #expect(screen.error == nil)
        #expect(
            screen.perform(.open, state.context) == [
                .showToast("You're offline. Signing out is off until you reconnect.")
            ])
    }

    /// Opened offline with nothing in memory (after a restart): the list the app kept, read only.
    @Test func openedOfflineTheKeptListShowsReadOnly() {
        var screen = ActiveSessionsScreen()
        var state = SampleData.state([screen], now: now)
        state.isOffline = true
        state.sessions = sessions
        #expect(screen.receive(.loaded(.failure(.offline(reason: "refused"))), state.context) == [])
        #expect(screen.sessions == sessions)
        #expect(screen.error == nil)
        #expect(text(SampleData.state([screen], now: now)).contains("Nino's iPhone"))
        screen.selection = 1
        #expect(
            screen.perform(.open, state.context) == [
                .showToast("You're offline. Signing out is off until you reconnect.")
            ])
        // Nothing kept: says so.
        var empty = ActiveSessionsScreen()
        state.sessions = nil
        _ = empty.receive(.loaded(.failure(.offline(reason: "refused"))), state.context)
        #expect(empty.error == "You're offline and nothing is saved yet. Press r to try again.")
    }

    @Test func aRateLimitHoldsSigningOutUntilItsCountdownEnds() {
        var screen = ActiveSessionsScreen.sample(now: now, selection: 1)
        let context = SampleData.state([screen], now: now).context
        _ = screen.receive(
            .signedOut("sf_iphone", .failure(.rateLimited(retryAfter: 30, message: "Slow down."))), context)
        #expect(screen.limitedUntil == now + 30)
        // The banner counts down; no "Try again later" under it (issue 48: a doubled, contrary line).
        #expect(screen.error == nil)
        #expect(screen.needsClock)
        #expect(screen.perform(.open, context) == [.showToast("Too many attempts. Wait for the countdown to end.")])
        let later = SampleData.state([screen], now: now + 30).context
        _ = screen.tick(later)
        #expect(screen.limitedUntil == nil)
        #expect(screen.perform(.open, later) == [.showSheet(.signOutSession(sessions[1], later))])
    }

    /// The device another one signed out: its next call lands it on sign-in, told why.
    @Test func signedOutElsewhereLandsOnSignInWithTheReason() {
        var state = SampleData.state([], now: now)
        state.stack[state.stack.count - 1] = AnyScreen(HubScreen(isLoading: true))
        state = state.topWaiting(LoadAuthMethods.self, HubScreen.Reply.methods)
        let harness = ReducerHarness(state)
        let message = "You were signed out from another device. Sign in again."
        harness.send(.failure(.signedOutElsewhere(message: message)), effects: [.signOutLocally]) {
            $0.methods = nil
            $0.methodsFetchedAt = nil
            $0.stack = [AnyScreen(SignInScreen(notice: AppRoutes.signedOutElsewhereText))]
        }
        #expect(text(harness.state).contains("You were signed out from another device"))
    }

    @Test func theSessionCheckAtStartSaysWhyToo() {
        var checking = AppState(root: SessionCheckScreen(), now: now)
        checking = checking.topWaiting(CheckSession.self, SessionCheckScreen.Reply.me)
        let harness = ReducerHarness(checking)
        harness.send(.failure(.signedOutElsewhere(message: "x")), effects: [.signOutLocally]) {
            $0.stack = [AnyScreen(SignInScreen(notice: AppRoutes.signedOutElsewhereText))]
        }
    }
}
