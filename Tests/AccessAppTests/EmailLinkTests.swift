import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Re-auth by emailed link: Check your email → (the outbox) → Verifying your link… → granted,
/// or This link has expired → a new link.
@Suite struct EmailLinkTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)
    let email = "jdoe@mail.com"
    let picker = ReauthPickerScreen(flow: .changePhone, selection: 1)

    func checkEmail(
        sentAt: Date, canResend: Bool = false, isResending: Bool = false, error: String? = nil
    )
        -> CheckEmailScreen
    {
        CheckEmailScreen(
            flow: .changePhone, sentTo: email, sentAt: sentAt, canResend: canResend, isResending: isResending,
            error: error)
    }

    func sent(at now: Date) -> EmailLinkSent { EmailLinkSent(sentTo: email, expiresAt: now + 30 * 60) }

    func linkMessage(token: String = "lk_fixture") -> OutboxMessage {
        OutboxMessage(
            id: 7, channel: "email", to: email, kind: "reauth_link", purpose: "reauth", code: nil,
            link: "https://321.fit/reauth?token=\(token)", token: token, sentAt: start, status: .live)
    }

    func grant(at now: Date) -> ReauthGrant {
        ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 15 * 60, method: .init(.email))
    }

    @Test func resendCountsDownThirtySecondsThenOffersResendLink() {
        let harness = ReducerHarness(SampleData.state([picker, checkEmail(sentAt: start)], now: start))
        harness.send(.input(.resize(.init(cols: 80, rows: 24))), effects: [tick]) {
            $0.size = .init(cols: 80, rows: 24)
            $0.clockTicking = true
        }
        #expect(harness.state.top.as(CheckEmailScreen.self)?.secondsLeft(harness.state.context) == 30)
        harness.send(.input(.key(.enter)))  // not yet
        for second in 1..<30 {
            harness.advance(by: 1)
            harness.receive(.tick, effects: [tick])
            #expect(harness.state.top.as(CheckEmailScreen.self)?.secondsLeft(harness.state.context) == 30 - second)
        }
        harness.advance(by: 1)
        harness.receive(.tick) {
            $0.top = AnyScreen(self.checkEmail(sentAt: self.start, canResend: true))
            $0.clockTicking = false
        }
        let now = start + 30
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthEmailSend(), id: 1)]) {
            $0.top = AnyScreen(self.checkEmail(sentAt: self.start, canResend: true, isResending: true))
            $0.topAwaits(1, Endpoint.ReauthEmailSend.self)
        }
        harness.advance(by: 1)
        harness.send(.reply(sent(at: now + 1), to: RequestID(1)), effects: [tick]) {
            $0.top = AnyScreen(self.checkEmail(sentAt: now + 1))
            $0.clockTicking = true
        }
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        #expect(harness.state.top.as(CheckEmailScreen.self)?.secondsLeft(harness.state.context) == 29)
        harness.advance(by: 29)
        harness.receive(.tick) {
            $0.top = AnyScreen(self.checkEmail(sentAt: now + 1, canResend: true))
            $0.clockTicking = false
        }
    }

    @Test func aFailedResendSaysWhyAndCanBeRetried() {
        let harness = ReducerHarness(
            SampleData.state([picker, checkEmail(sentAt: start - 40, canResend: true)], now: start))
        harness.send(.input(.key(.character("r"))), effects: [.request(Endpoint.ReauthEmailSend(), id: 1)]) {
            $0.top = AnyScreen(self.checkEmail(sentAt: self.start - 40, canResend: true, isResending: true))
            $0.topAwaits(1, Endpoint.ReauthEmailSend.self)
        }
        let failure = APIError.server(status: 500, code: "internal", message: "Something went wrong on the server.")
        harness.send(.failure(failure, to: RequestID(1))) {
            $0.top = AnyScreen(self.checkEmail(sentAt: self.start - 40, canResend: true, error: failure.message))
        }
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthEmailSend(), id: 2)]) {
            $0.top = AnyScreen(self.checkEmail(sentAt: self.start - 40, canResend: true, isResending: true))
            $0.topAwaits(2, Endpoint.ReauthEmailSend.self)
        }
    }

    @Test func theLinkFromTheOutboxVerifiesAndContinuesTheFlow() {
        var state = SampleData.state([picker, checkEmail(sentAt: start - 40, canResend: true)], now: start)
        state.overlay = .outbox(OutboxPanel(messages: [linkMessage()], isLoading: false))
        let harness = ReducerHarness(state)
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.ReauthEmailConfirm(token: "lk_fixture"), id: 1), tick]
        ) {
            $0.overlay = nil
            $0.stack.append(
                AnyScreen(VerifyingLinkScreen(flow: .changePhone, token: "lk_fixture", shownAt: self.start)))
            $0.topAwaits(1, Endpoint.ReauthEmailConfirm.self)
            $0.clockTicking = true
        }
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])  // the spinner turns
        let grant = grant(at: start + 1)
        harness.send(.reply(grant, to: RequestID(1))) {
            $0.reauth = grant
            $0.stack = [
                $0.stack[0], $0.stack[1],
                AnyScreen(EnterPhoneScreen(flow: .changePhone, current: SampleData.everyMethod.phone)),
            ]
        }
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
    }

    /// Issue 17: without an outbox (a real backend), the link pasted from the mail opens it.
    @Test func aPastedLinkOpensAsIfTapped() {
        var state = SampleData.state([picker, checkEmail(sentAt: start - 40, canResend: true)], now: start)
        state.options.hasReferenceBackend = false
        let harness = ReducerHarness(state)
        #expect(render(harness.state, size: .standard).text().contains("Paste the link from the email here"))
        harness.send(
            .input(.paste("https://mail.example/l?utm=x&token=lk_pasted \n")),
            effects: [.request(Endpoint.ReauthEmailConfirm(token: "lk_pasted"), id: 1), tick]
        ) {
            $0.stack.append(
                AnyScreen(VerifyingLinkScreen(flow: .changePhone, token: "lk_pasted", shownAt: self.start)))
            $0.topAwaits(1, Endpoint.ReauthEmailConfirm.self)
            $0.clockTicking = true
        }
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        let grant = grant(at: start + 1)
        harness.send(.reply(grant, to: RequestID(1))) {
            $0.reauth = grant
            $0.stack = [
                $0.stack[0], $0.stack[1],
                AnyScreen(EnterPhoneScreen(flow: .changePhone, current: SampleData.everyMethod.phone)),
            ]
        }
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
    }

    /// `accessdeck open-link` with no screen waiting: the backend is asked what the token is (issue 27),
    /// and the answer's kind says where it goes.
    @Test func aHandedOverLinkIsAskedAboutThenGoesWhereItsKindSays() {
        let harness = ReducerHarness(SampleData.state([], now: start))
        harness.send(
            .openLink("http://127.0.0.1:8080/links/verify-email?token=ev_handed"),
            effects: [.request(Endpoint.InspectLink(token: "ev_handed"), id: 1), tick]
        ) {
            $0.stack.append(AnyScreen(CheckingLinkScreen(token: "ev_handed")))
            $0.topAwaits(1, Endpoint.InspectLink.self)
            $0.clockTicking = true
        }
        harness.send(
            .reply(LinkInfo(kind: .init(.emailChange), state: .init(.live), expiresAt: start + 1800), to: RequestID(1)),
            effects: [.request(VerifyEmailLink(token: "ev_handed"), id: 2)]
        ) {
            $0.top = AnyScreen(
                VerifyingLinkScreen(link: AnyLinkPurpose(EmailChangeLink()), token: "ev_handed", shownAt: self.start))
            $0.topAwaits(2, VerifyEmailLink.self)
        }
        // The spinner turns as long as the link is being verified.
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        harness.expectRunning(tick)
    }

    @Test func pastedTextThatIsNoLinkSaysSoAndOpensNothing() {
        let harness = ReducerHarness(
            SampleData.state([picker, checkEmail(sentAt: start - 40, canResend: true)], now: start))
        harness.send(.input(.paste("Hi! See you tomorrow."))) {
            $0.top = AnyScreen(
                self.checkEmail(sentAt: self.start - 40, canResend: true, error: CheckEmailScreen.notALinkText))
        }
    }

    @Test(arguments: [
        ("https://321.fit/reauth?token=lk_abc", "lk_abc"),
        ("http://127.0.0.1:8080/links/verify-email?token=ev_1&x=2", "ev_1"),
        ("https://app.example.com/magic/AbCdEfGhIjKlMnOpQr", "AbCdEfGhIjKlMnOpQr"),
        ("  lk_bare_token_1234\n", "lk_bare_token_1234"),
    ])
    func theTokenIsFoundInALink(pasted: String, token: String) {
        #expect(PastedLink.token(from: pasted) == token)
    }

    @Test(arguments: ["", "two words", "https://example.com/", "https://example.com/short", "a/b"])
    func textWithoutATokenIsNotALink(pasted: String) {
        #expect(PastedLink.token(from: pasted) == nil)
    }

    @Test func aCodeFromTheOutboxIsNotForThisScreen() {
        var state = SampleData.state([picker, checkEmail(sentAt: start - 40, canResend: true)], now: start)
        let code = SampleData.outbox(at: start)[0]
        state.overlay = .outbox(OutboxPanel(messages: [code], isLoading: false))
        let harness = ReducerHarness(state)
        harness.send(
            .input(.key(.enter)), effects: [.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)]
        ) {
            $0.overlay = nil
            $0.toast = Toast("Nothing on this screen takes that code.", shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    @Test func aLinkOfAnotherKindIsNotForThisScreen() {
        var state = SampleData.state([picker, checkEmail(sentAt: start - 40, canResend: true)], now: start)
        var other = linkMessage()
        other.kind = "email_change_link"
        state.overlay = .outbox(OutboxPanel(messages: [other], isLoading: false))
        let harness = ReducerHarness(state)
        harness.send(
            .input(.key(.enter)), effects: [.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)]
        ) {
            $0.overlay = nil
            $0.toast = Toast("Nothing on this screen takes that link.", shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    /// Issue 28 item 5: a notice (recovery requested) carries no code and no link: Enter says so.
    @Test func aNoticeHasNothingToUse() {
        var state = SampleData.state([picker, checkEmail(sentAt: start - 40, canResend: true)], now: start)
        var notice = linkMessage()
        notice.kind = "recovery_started_notice"
        notice.link = nil
        notice.token = nil
        state.overlay = .outbox(OutboxPanel(messages: [notice], isLoading: false))
        let harness = ReducerHarness(state)
        harness.send(
            .input(.key(.enter)), effects: [.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)]
        ) {
            $0.overlay = nil
            $0.toast = Toast("That's a notice: there is nothing in it to use.", shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    /// Issue 28 item 6: the revert link ends every session, this one too: the app goes to sign-in and says
    /// why, rather than staying on Settings looking signed in.
    @Test func theRevertLinkWhileSignedInGoesToSignInAndSaysWhy() {
        let context = SampleData.state([SettingsScreen()], now: start).context
        let commands = RevertEmailLink().confirmed(
            EmailReverted(email: "jdoe@mail.com", signedOutSessions: 2), context)
        let notice = "Your email is jdoe@mail.com again. Every session was signed out, this one too. Sign in again."
        #expect(commands == [.signOut, .resetStack(AnyScreen(SignInScreen(notice: notice)))])
    }

    /// Issue 28 item 6: a registration link opened while signed in verifies the address; there is nothing to
    /// log in to.
    @Test func aRegistrationLinkWhileSignedInDoesNotAskToLogIn() {
        let context = SampleData.state([SettingsScreen()], now: start).context
        let commands = RegistrationLink().confirmed(RegistrationConfirmed(email: "other@mail.com"), context)
        #expect(commands.contains(.showToast("other@mail.com is verified.")))
        #expect(!commands.contains { "\($0)".contains("Log in") })
    }

    /// Issue 28 item 3: a sign-up link a newer one replaced did not run out: the screen says a newer link was
    /// sent, and "Request a new link" opens "Please verify your email" for the address, whose Resend sends one.
    @Test func aReplacedRegistrationLinkSaysSoAndOffersAnother() {
        let context = SampleData.state([], methods: nil, now: start).context
        let link = AnyLinkPurpose(RegistrationLink(email: "new.user@mail.com"))
        var verifying = VerifyingLinkScreen(link: link, token: "lk_fixture", shownAt: start - 5)
        let replaced = APIError.server(status: 410, code: "link_superseded", message: "A newer link was sent.")
        let expired = LinkExpiredScreen(link: link, isReplaced: true)
        #expect(verifying.receive(.confirm(.failure(replaced)), context) == [.replaceTop(expired)])
        let text = render(SampleData.state([expired], methods: nil, now: start), size: .standard).text()
        #expect(text.contains("A newer link was sent"))
        #expect(!text.contains("This link has expired"))
        #expect(text.contains("Request a new link"))
        var chooser = expired
        #expect(
            chooser.perform(.choose, context) == [
                .popToNearest(VerifyAccountScreen.self),
                .replaceTop(VerifyAccountScreen(email: "new.user@mail.com", justRegistered: false)),
            ])
    }

    @Test func theSpinnerFrameFollowsTheClock() {
        let screen = VerifyingLinkScreen(flow: .changePhone, token: "lk_fixture")
        let first = render(SampleData.state([screen], now: start), size: .standard)
        let second = render(SampleData.state([screen], now: start + 1), size: .standard)
        #expect(first != second)
        #expect(screen.needsClock)
    }

    @Test func anExpiredOrUsedLinkReplacesTheSpinnerWithLinkExpired() {
        let verifying = VerifyingLinkScreen(flow: .changePhone, token: "lk_old")
        let harness = ReducerHarness(
            SampleData.state([picker, checkEmail(sentAt: start - 1900, canResend: true), verifying], now: start)
                .checkingItsLink())
        let gone = APIError.codeExpired(message: "This link has expired. Request a new one to try again.")
        harness.send(.failure(gone)) {
            $0.top = AnyScreen(LinkExpiredScreen(flow: .changePhone))
        }
    }

    @Test func linkExpiredSendsANewLinkAndShowsAFreshCheckYourEmail() {
        let harness = ReducerHarness(
            SampleData.state(
                [picker, checkEmail(sentAt: start - 1900, canResend: true), LinkExpiredScreen(flow: .changePhone)],
                now: start))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthEmailSend(), id: 1)]) {
            $0.top = AnyScreen(LinkExpiredScreen(flow: .changePhone, isSending: true))
            $0.topAwaits(1, Endpoint.ReauthEmailSend.self)
        }
        harness.send(.input(.key(.enter)))  // already sending
        harness.send(.reply(sent(at: start), to: RequestID(1)), effects: [tick]) {
            // One "Check your email", the fresh one: the old one below is gone.
            $0.stack.removeLast()
            $0.top = AnyScreen(self.checkEmail(sentAt: self.start))
            $0.clockTicking = true
        }
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        #expect(harness.state.top.id == "reauth-picker")
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
    }

    @Test func linkExpiredSendFailureIsShownInline() {
        let harness = ReducerHarness(
            SampleData.state([LinkExpiredScreen(flow: .changePhone, isSending: true)], now: start)
                .topWaiting(Endpoint.ReauthEmailSend.self, LinkExpiredScreen.Reply.resend))
        harness.send(.failure(.offline(reason: "test")), effects: [.firstProbe]) {
            $0.wentOffline()
            $0.top = AnyScreen(
                LinkExpiredScreen(flow: .changePhone, error: APIError.offline(reason: "test").message))
        }
        harness.expectRunning(.firstProbe)
    }

    @Test func linkExpiredOffersContactSupport() {
        let harness = ReducerHarness(SampleData.state([LinkExpiredScreen(flow: .changePhone)], now: start))
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(LinkExpiredScreen(flow: .changePhone, selection: 1)) }
        harness.send(.input(.key(.down)))
        harness.send(
            .input(.key(.enter)), effects: [.request(LoadLastError(), id: harness.state.nextRequestID)]
        ) {
            $0.supportPushed(.user(SampleData.everyMethod.userId))
        }
    }

    @Test func anOfflineVerifyCanBeRetriedAndOtherErrorsOnlyGoBack() {
        let harness = ReducerHarness(
            SampleData.state([VerifyingLinkScreen(flow: .changePhone, token: "lk_fixture")], now: start)
                .checkingItsLink())
        let offline = APIError.offline(reason: "test")
        harness.send(.failure(offline), effects: [.firstProbe]) {
            $0.wentOffline()
            $0.top = AnyScreen(
                VerifyingLinkScreen(flow: .changePhone, token: "lk_fixture", error: offline.message, canRetry: true))
        }
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.ReauthEmailConfirm(token: "lk_fixture"), id: 1), tick]
        ) {
            $0.top = AnyScreen(VerifyingLinkScreen(flow: .changePhone, token: "lk_fixture", shownAt: self.start))
            $0.topAwaits(1, Endpoint.ReauthEmailConfirm.self)
            $0.clockTicking = true
        }
        let unknown = APIError.server(status: 404, code: "link_not_found", message: "This link is not valid.")
        harness.send(.failure(unknown, to: RequestID(1)), effects: [.cancel(.probe)]) {
            $0.isOffline = false
            $0.banner = nil
            $0.probeWait = nil
            $0.top = AnyScreen(
                VerifyingLinkScreen(
                    flow: .changePhone, token: "lk_fixture", error: unknown.message, shownAt: self.start))
        }
        harness.send(.input(.key(.enter)))
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
    }

    /// Seed 000 shows "Verifying your link…" for about 1–2 s: a fast answer waits until the
    /// spinner has been up a second on the app clock, then the flow goes on.
    @Test func aFastAnswerKeepsTheSpinnerUpForASecond() {
        var state = SampleData.state([picker, checkEmail(sentAt: start - 40, canResend: true)], now: start)
        state.stack.append(AnyScreen(VerifyingLinkScreen(flow: .changePhone, token: "lk_fixture", shownAt: start)))
        let harness = ReducerHarness(state.checkingItsLink())
        harness.advance(by: 0.2)
        let grant = grant(at: start)
        harness.send(.reply(grant), effects: [tick]) {
            $0.top = AnyScreen(
                VerifyingLinkScreen(
                    flow: .changePhone, token: "lk_fixture", shownAt: self.start,
                    held: [.grantReauth(grant), .continueFlow(PhoneFlow.changePhone)]))
            $0.clockTicking = true
        }
        #expect(render(harness.state, size: .standard).text().contains("Verifying your link…"))
        harness.advance(by: 1)
        harness.receive(.tick) {
            $0.reauth = grant
            $0.stack = [
                $0.stack[0], $0.stack[1],
                AnyScreen(EnterPhoneScreen(flow: .changePhone, current: SampleData.everyMethod.phone)),
            ]
            $0.clockTicking = false
        }
    }

    /// "This link has expired" says how long the kind of link opened lasts: the backend keeps registration
    /// links (sign-up, and onboarding's recovery email) for 24 hours, an email change's for 30 minutes.
    @Test func expiredLinkScreenStatesEachLinksOwnLifetime() {
        func text(_ link: some LinkPurpose) -> String {
            render(SampleData.state([LinkExpiredScreen(link: AnyLinkPurpose(link))], now: start), size: .standard)
                .text()
        }
        #expect(text(RegistrationLink()).contains("Verification links expire after 24 hours."))
        #expect(text(RecoveryEmailLink()).contains("Verification links expire after 24 hours."))
        #expect(text(EmailChangeLink()).contains("Verification links expire after 30 minutes."))
        #expect(text(AccountRecoveryLink()).contains("Recovery links work once, for 24 hours."))
    }
}

extension AppState {
    /// This state, its top screen ("Verifying your link…") waiting for the check its `onAppear` asked for,
    /// that very call: the link's purpose reads the answer, so a stand-in request would not.
    fileprivate func checkingItsLink() -> AppState {
        var state = self
        for case .call(let call) in state.top.base.onAppear(state.context) {
            state.pending[.inFlight] = PendingCall(.screen(depth: state.stack.count - 1), call)
        }
        return state
    }
}
