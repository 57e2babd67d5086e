import AccessAPI
import AccessAppTesting
import Foundation
import Testing

@testable import AccessApp

/// Issue 48 item 10: signed in, a used reset link offered "Request a new link", which led to Forgot password,
/// whose new link said "You're already signed in": a loop. A link that only works signed out is not asked for
/// again by a signed-in person; the reset offers what seed 000 gives a signed-in person instead, Change
/// password on Email & password (after "Verify it's you"), and the recovery link, with nothing to recover,
/// leaves support.
@Suite struct UsedLinkSignedInTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let email = "jdoe@mail.com"

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    @Test func signedInAUsedResetLinkLeadsToChangePasswordNotANewLink() {
        let expired = LinkExpiredScreen(link: AnyLinkPurpose(ForgotPasswordLink(email: email)))
        let harness = ReducerHarness(SampleData.state([expired], now: start), exhaustivity: .off)
        let screen = text(harness.state)
        #expect(screen.contains("Change password"))
        #expect(screen.contains("Contact support"))
        #expect(!screen.contains("Request a new link"))
        harness.send(.input(.key(.enter)))
        #expect(harness.state.top.as(EmailPasswordScreen.self) == EmailPasswordScreen(selection: .changePassword))
        #expect(harness.state.stack.map(\.id) == ["settings", "hub", "hub", "email-password"])
        #expect(!harness.state.stack.contains { $0.is(ScreenType(ForgotPasswordScreen.self)) })
        // Enter there starts the change as from the hub: "Verify it's you" first.
        harness.send(.input(.key(.enter)))
        #expect(harness.state.top.as(ReauthPickerScreen.self)?.flow == AnyFlow(EmailFlow.changePassword))
        #expect(harness.state.defects.isEmpty)
    }

    /// Signed in before the methods were ever fetched (Settings at the start): signed in all the same, and the
    /// hub on the way to Email & password loads them.
    @Test func signedInWithNoMethodsFetchedYetIsSignedInAllTheSame() {
        var state = AppState(now: start)
        state.stack.append(AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(ForgotPasswordLink(email: email)))))
        let harness = ReducerHarness(state, exhaustivity: .off)
        #expect(harness.state.methods == nil)
        #expect(text(harness.state).contains("Change password"))
        #expect(!text(harness.state).contains("Request a new link"))
        let effects = harness.send(.input(.key(.enter)))
        #expect(effects.contains(.request(LoadAuthMethods(), id: 1)))
        #expect(harness.state.stack.map(\.id) == ["settings", "hub", "email-password"])
    }

    @Test func signedOutAUsedResetLinkStillAsksForANewOne() {
        var state = AppState(root: SignInScreen(), now: start)
        state.stack.append(AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(ForgotPasswordLink(email: email)))))
        let harness = ReducerHarness(state, exhaustivity: .off)
        #expect(text(harness.state).contains("Request a new link"))
        #expect(!text(harness.state).contains("Change password"))
        harness.send(.input(.key(.enter)))
        #expect(harness.state.top.as(ForgotPasswordScreen.self) != nil)
    }

    @Test func signedInAUsedRecoveryLinkLeavesSupportOnly() {
        let expired = LinkExpiredScreen(link: AnyLinkPurpose(AccountRecoveryLink()))
        let harness = ReducerHarness(SampleData.state([expired], now: start), exhaustivity: .off)
        #expect(!text(harness.state).contains("Request a new link"))
        harness.send(.input(.key(.enter)))
        #expect(harness.state.top.as(ContactSupportScreen.self) != nil)
    }
}
