import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// "Forgot password?" (issue 28 item 25) through `reduce`, against the contract (the tmux walk takes it to
/// the reference backend): from Log in and from recovery's password screen, the same answer for every
/// address, the link from the outbox or handed over, "Set a new password" with the rules, and Log in after.
@Suite struct PasswordResetFlowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let email = "jdoe@mail.com"
    let token = "pr_fixture"

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    func send(_ action: Action, to state: inout AppState, at now: Date? = nil) -> [Effect] {
        if let now { state.now = now }
        return reduce(&state, action)
    }

    func requests(_ effects: [Effect]) -> [AnyRequest] {
        effects.compactMap { effect in
            if case .request(let request, _) = effect { return request }
            return nil
        }
    }

    func requestID(_ effects: [Effect]) -> RequestID {
        effects.lazy.compactMap { effect -> RequestID? in
            if case .request(_, let id) = effect { return id }
            return nil
        }.first ?? RequestID(-1)
    }

    func signedOut(_ screens: [any ScreenModel]) -> AppState {
        ForgotPasswordScreen.sample(screens, now: start)
    }

    var link: AnyLinkPurpose { AnyLinkPurpose(ForgotPasswordLink(email: email)) }

    func opening(at now: Date) -> VerifyingLinkScreen {
        VerifyingLinkScreen(link: link, token: token, shownAt: now)
    }

    func resetScreen(
        _ password: String = "", confirmation: String = "", focus: ResetPasswordScreen.Focus = .new
    )
        -> ResetPasswordScreen
    {
        ResetPasswordScreen(
            email: email, token: Secret(token), newPassword: password, confirmation: confirmation, focus: focus)
    }

    // MARK: - The ways in

    @Test func ctrlFOnLogInAsksForALinkToTheTypedAddress() {
        var state = AppState(root: PasswordLoginScreen(email: " \(email) ", password: "forgotten"), now: start)
        #expect(text(state).contains("Forgot password? Ctrl+F"))
        _ = send(.input(.key(.control("f"))), to: &state)
        #expect(state.top == AnyScreen(ForgotPasswordScreen(email: email)))

        // Registering has no password to forget: neither the key nor the line.
        var register = AppState(root: PasswordLoginScreen(mode: .register, email: email), now: start)
        #expect(!text(register).contains("Forgot password?"))
        _ = send(.input(.key(.control("f"))), to: &register)
        #expect(register.top.as(PasswordLoginScreen.self) != nil)
    }

    @Test func ctrlFOnRecoverysPasswordScreenAsksForALinkToItsAddress() {
        var state = SampleData.recovering(
            [RecoveryPasswordScreen(email: SampleData.recoveryEmail, token: Secret("rc_x"))], now: start)
        #expect(text(state).contains("Forgot password? Ctrl+F"))
        _ = send(.input(.key(.control("f"))), to: &state)
        #expect(state.top == AnyScreen(ForgotPasswordScreen(email: SampleData.recoveryEmail)))
    }

    // MARK: - The request

    @Test func aSentLinkShowsTheSameScreenWhateverTheBackendKnows() {
        var state = signedOut([ForgotPasswordScreen(email: email)])
        let effects = send(.input(.key(.enter)), to: &state)
        #expect(requests(effects) == [AnyRequest(Endpoint.RequestPasswordReset(email: email))])
        #expect(state.top == AnyScreen(ForgotPasswordScreen(email: email, isWorking: true)))
        _ = send(
            .reply(PasswordResetRequested(email: email, resendAfter: start + 30), to: requestID(effects)), to: &state)
        #expect(state.top == AnyScreen(ResetSentScreen(email: email, resendAfter: start + 30)))
        #expect(text(state).contains("Resend link in 0:30"))

        func screenText(for address: String) -> String {
            var state = signedOut([ForgotPasswordScreen(email: address)])
            let id = requestID(send(.input(.key(.enter)), to: &state))
            _ = send(.reply(PasswordResetRequested(email: address, resendAfter: start + 30), to: id), to: &state)
            return text(state).replacingOccurrences(of: address, with: "ADDRESS")
        }
        #expect(screenText(for: email) == screenText(for: "nobody@mail.com"))
        #expect(screenText(for: email).contains("If an account uses ADDRESS, we've sent it a link"))
    }

    @Test func anInvalidAddressIsSaidBeforeAnyCall() {
        var state = signedOut([ForgotPasswordScreen(email: "jdoe@mail")])
        #expect(send(.input(.key(.enter)), to: &state).isEmpty)
        #expect(
            state.top == AnyScreen(ForgotPasswordScreen(email: "jdoe@mail", error: ForgotPasswordScreen.invalidText)))
    }

    /// The gap between sends says when the next is possible, as the banner does; sending is off until then.
    @Test func aCooldownCountsDownAndThenSendingWorksAgain() {
        var state = signedOut([ForgotPasswordScreen(email: email)])
        let id = requestID(send(.input(.key(.enter)), to: &state))
        _ = send(
            .failure(.rateLimited(retryAfter: 24, message: "Please wait", limit: .cooldown), to: id), to: &state)
        #expect(text(state).contains("Resend in 0:24"))
        #expect(!text(state).contains("Too many"))
        #expect(send(.input(.key(.enter)), to: &state, at: start + 23).isEmpty)
        _ = send(.tick, to: &state, at: start + 24)
        #expect(
            requests(send(.input(.key(.enter)), to: &state)) == [
                AnyRequest(Endpoint.RequestPasswordReset(email: email))
            ])
    }

    // MARK: - The link

    func linkMessage() -> OutboxMessage {
        OutboxMessage(
            id: 11, channel: "email", to: email, kind: "password_reset_link", purpose: "password_reset", code: nil,
            link: "https://321.fit/reset-password?token=\(token)", token: token, sentAt: start, status: .live)
    }

    @Test func theLinkOpensFromTheOutboxOrHandedOverAndAsksForANewPassword() {
        // The outbox used where "Check your email" waits.
        var fromOutbox = signedOut([ResetSentScreen(email: email, resendAfter: start + 30)])
        fromOutbox.overlay = .outbox(OutboxPanel(messages: [linkMessage()], isLoading: false))
        let checking = send(.input(.key(.enter)), to: &fromOutbox)
        #expect(fromOutbox.top.base as? VerifyingLinkScreen == opening(at: start))
        #expect(requests(checking) == [AnyRequest(CheckPasswordResetLink(token: token))])
        let checked = CheckedResetLink(
            link: PasswordResetLink(email: email, expiresAt: start + 1800), token: Secret(token))
        _ = send(.reply(checked, to: requestID(checking)), to: &fromOutbox, at: start + 1)
        #expect(fromOutbox.top == AnyScreen(resetScreen()))
        #expect(text(fromOutbox).contains("Set a new password"))
        #expect(!text(fromOutbox).contains(token))

        // From the outbox with nothing waiting (the sign-in screen), and `accessdeck open-link URL`: the
        // backend is asked what the token is, cold or warm alike.
        var anywhere = AppState(root: SignInScreen(), now: start)
        anywhere.overlay = .outbox(OutboxPanel(messages: [linkMessage()], isLoading: false))
        _ = send(.input(.key(.enter)), to: &anywhere)
        #expect(anywhere.top.base as? VerifyingLinkScreen == opening(at: start))

        var handedOver = AppState(root: SignInScreen(), now: start)
        let asked = send(.openLink("https://321.fit/reset-password?token=\(token)"), to: &handedOver)
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        let live = LinkInfo(kind: .init(.passwordReset), state: .init(.live), expiresAt: start + 1800)
        let effects = send(.reply(live, to: requestID(asked)), to: &handedOver)
        #expect(requests(effects) == [AnyRequest(CheckPasswordResetLink(token: token))])
        _ = send(.reply(checked, to: requestID(effects)), to: &handedOver, at: start + 1)
        #expect(handedOver.top == AnyScreen(resetScreen()))
    }

    /// As where a recovery link waits (one screen for both): a link handed over (`accessdeck open-link`) where
    /// "Check your email" waits opens as if tapped, for the address it went to, without asking the backend
    /// what it is first; text that is no link says so there.
    @Test func aLinkHandedOverWhereTheResetWaitsOpensAsIfTapped() {
        var state = signedOut([ResetSentScreen(email: email, resendAfter: start + 30)])
        let effects = send(.openLink("https://321.fit/reset-password?token=\(token)"), to: &state)
        #expect(requests(effects) == [AnyRequest(CheckPasswordResetLink(token: token))])
        #expect(state.top.base as? VerifyingLinkScreen == opening(at: start))

        var garbage = signedOut([ResetSentScreen(email: email, resendAfter: start + 30)])
        #expect(requests(send(.openLink("not a link at all"), to: &garbage)).isEmpty)
        #expect(garbage.top.as(ResetSentScreen.self)?.error == CheckEmailScreen.notALinkText)
    }

    @Test func aResetLinkOpenedWhileSignedInLeavesTheSessionAlone() {
        var state = SampleData.state([HubScreen()], now: start)
        let hub = state.stack
        let asked = send(.openLink("https://321.fit/reset-password?token=\(token)"), to: &state)
        let live = LinkInfo(kind: .init(.passwordReset), state: .init(.live), expiresAt: start + 1800)
        let effects = send(.reply(live, to: requestID(asked)), to: &state)
        let checked = CheckedResetLink(
            link: PasswordResetLink(email: email, expiresAt: start + 1800), token: Secret(token))
        _ = send(.reply(checked, to: requestID(effects)), to: &state, at: start + 1)
        #expect(state.stack == hub)
        #expect(state.toast?.message == ForgotPasswordLink.signedInText)
        #expect(state.methods != nil)
    }

    @Test func anExpiredLinkGetsTheLinkScreenAndANewLinkForTheAddress() {
        var state = signedOut([ResetSentScreen(email: email, resendAfter: start + 30)])
        state.overlay = .outbox(OutboxPanel(messages: [linkMessage()], isLoading: false))
        let effects = send(.input(.key(.enter)), to: &state)
        _ = send(.failure(.codeExpired(message: "Link expired"), to: requestID(effects)), to: &state, at: start + 1)
        #expect(state.top == AnyScreen(LinkExpiredScreen(link: link)))
        #expect(text(state).contains("Reset links work once, for 30 minutes."))
        _ = send(.input(.key(.enter)), to: &state)
        // One "Forgot password?", fresh, with the address, where the old one was.
        #expect(state.top == AnyScreen(ForgotPasswordScreen(email: email)))
        #expect(state.stack.filter { $0.as(ForgotPasswordScreen.self) != nil }.count == 1)
    }

    // MARK: - The new password

    @Test func theRulesAndTheConfirmationHoldTheButtonBack() {
        var state = signedOut([resetScreen("password1", confirmation: "password1", focus: .cta)])
        #expect(send(.input(.key(.enter)), to: &state).isEmpty)
        #expect(text(state).contains("✗ Not a common password"))
        // Like the address the link went to: refused here as the server would.
        state = signedOut([resetScreen("jdoe@mail.com", confirmation: "jdoe@mail.com", focus: .cta)])
        #expect(send(.input(.key(.enter)), to: &state).isEmpty)
        #expect(text(state).contains("✗ Not similar to your email"))
        state = signedOut([resetScreen("violet-harbor-77", confirmation: "violet-harbor-78", focus: .confirm)])
        #expect(text(state).contains("Passwords don't match."))
        #expect(send(.input(.key(.enter)), to: &state).isEmpty)
    }

    @Test func ctrlRShowsAndHidesBothFields() {
        var state = signedOut([resetScreen("violet-harbor-77", confirmation: "violet-harbor-77")])
        #expect(!text(state).contains("violet-harbor-77"))
        _ = send(.input(.key(.control("r"))), to: &state)
        #expect(text(state).components(separatedBy: "violet-harbor-77").count == 3)
        _ = send(.input(.key(.control("r"))), to: &state)
        #expect(!text(state).contains("violet-harbor-77"))
    }

    @Test func aNewPasswordLeadsToLogInWithTheAddress() {
        var state = signedOut([resetScreen("violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta)])
        let effects = send(.input(.key(.enter)), to: &state)
        #expect(
            requests(effects) == [
                AnyRequest(CompletePasswordReset(token: Secret(token), newPassword: Secret("violet-harbor-77")))
            ])
        _ = send(.reply(PasswordResetDone(email: email, signedOutSessions: 2), to: requestID(effects)), to: &state)
        var expected = AppState(root: SignInScreen(), now: start)
        let signIn = AnyScreen(SignInScreen.selecting(.password, expected.context))
        expected.stack = [
            signIn,
            AnyScreen(PasswordLoginScreen(email: email, focus: .password, notice: ResetPasswordScreen.doneText)),
        ]
        #expect(state.stack == expected.stack)
        #expect(text(state).contains("Password changed and every session signed out."))
    }

    @Test func theServersRefusalsAreSaidAndTheLinkScreensFollowADeadLink() {
        var state = signedOut([resetScreen("violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta)])
        var id = requestID(send(.input(.key(.enter)), to: &state))
        _ = send(
            .failure(.invalid(fieldErrors: ["password_too_common"], message: "Too common"), to: id), to: &state)
        let refused = state.top.as(ResetPasswordScreen.self)
        #expect(refused?.newPassword.error == PasswordRule.tooCommon.message)
        #expect(refused?.newPassword.value == "violet-harbor-77")
        #expect(refused?.focus == .new)

        state = signedOut([resetScreen("violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta)])
        id = requestID(send(.input(.key(.enter)), to: &state))
        _ = send(.failure(.codeExpired(message: "Link expired"), to: id), to: &state)
        #expect(state.top == AnyScreen(LinkExpiredScreen(link: link)))

        state = signedOut([resetScreen("violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta)])
        id = requestID(send(.input(.key(.enter)), to: &state))
        let superseded = APIError.server(status: 410, code: "link_superseded", message: "A newer link was sent.")
        _ = send(.failure(superseded, to: id), to: &state)
        #expect(state.top == AnyScreen(LinkExpiredScreen(link: link, isReplaced: true)))
        #expect(text(state).contains("A newer link was sent"))
    }

    @Test func theOutboxNamesTheResetLink() {
        #expect(OutboxPanel.describe(linkMessage(), now: start).title == "Email to \(email) · password reset link")
    }
}
