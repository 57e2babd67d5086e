import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Seed 003's recovery by email through `reduce`, against the contract (the walks in tmux take it to
/// the reference backend): the request and its same-for-everyone answer, the link from anywhere,
/// the password with its lockout, limited access and its one sheet, and the phone verified again.
@Suite struct RecoveryFlowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)
    let email = SampleData.recoveryEmail
    let token = "rcv_fixture"

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

    var signInRecovering: AnyScreen {
        SampleData.recovering([], now: start).stack[0]
    }

    func linkMessage() -> OutboxMessage {
        OutboxMessage(
            id: 6, channel: "email", to: email, kind: "recovery_link", purpose: "recovery", code: nil,
            link: "https://321.fit/recover?token=\(token)", token: token, sentAt: start, status: .live)
    }

    func opening(at now: Date) -> VerifyingLinkScreen {
        VerifyingLinkScreen(link: AnyLinkPurpose(AccountRecoveryLink()), token: token, shownAt: now)
    }

    func signedIn(_ profile: Profile?) -> SignedIn {
        SignedIn(
            session: SessionTokens(
                userId: "usr_athlete", accessToken: "at_x", accessExpiresAt: start + 3600, refreshToken: "rt_x",
                refreshExpiresAt: start + 7 * 86_400),
            deviceId: "dvc_1", isNewUser: false, authMethods: SampleData.everyMethod, profile: profile,
            assuranceLevel: .init(.aal1), secondFactorRequired: false)
    }

    // MARK: - The request

    @Test func theSignInScreenLeadsToTheRequest() {
        var state = SampleData.recovering([], now: start)
        #expect(text(state).contains("Can't access your account?"))
        _ = send(.input(.key(.enter)), to: &state)
        #expect(state.top == AnyScreen(RecoveryRequestScreen()))
    }

    @Test func aSentLinkShowsTheSameScreenWhateverTheBackendKnows() {
        let harness = ReducerHarness(SampleData.recovering([RecoveryRequestScreen(email: " \(email) ")], now: start))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.StartRecovery(email: email), id: 1)]) {
            $0.top = AnyScreen(RecoveryRequestScreen(email: " \(self.email) ", isWorking: true))
            $0.topAwaits(1, Endpoint.StartRecovery.self)
        }
        harness.send(.reply(RecoveryStarted(email: email, resendAfter: start + 30), to: RequestID(1)), effects: [tick])
        {
            $0.top = AnyScreen(RecoveryRequestScreen(email: " \(self.email) "))
            $0.stack.append(AnyScreen(RecoverySentScreen(email: self.email, resendAfter: self.start + 30)))
            $0.clockTicking = true
        }
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick]) { $0.clockTicking = true }
        harness.advance(by: 29)
        harness.receive(.tick) {
            $0.top = AnyScreen(RecoverySentScreen(email: self.email, resendAfter: self.start + 30, canResend: true))
            $0.clockTicking = false
        }

        // An address with no account gets the same answer from the backend, so the same words (the
        // same length, so the same wrapping).
        func screenText(for address: String) -> String {
            var state = SampleData.recovering([RecoveryRequestScreen(email: address)], now: start)
            let id = requestID(send(.input(.key(.enter)), to: &state))
            _ = send(.reply(RecoveryStarted(email: address, resendAfter: start + 30), to: id), to: &state)
            return text(state).replacingOccurrences(of: address, with: "ADDRESS")
        }
        #expect(screenText(for: email) == screenText(for: "nobody.xyz@mail.com"))
        #expect(screenText(for: email).contains("If an account uses ADDRESS, we've sent it a link"))
    }

    @Test func anInvalidAddressIsSaidInlineBeforeAndAfterTheServerAndKept() {
        var state = SampleData.recovering([RecoveryRequestScreen(email: "lost.phone@mail")], now: start)
        #expect(send(.input(.key(.enter)), to: &state).isEmpty)
        #expect(
            state.top
                == AnyScreen(
                    RecoveryRequestScreen(email: "lost.phone@mail", error: "Please enter a valid email address")))

        state = SampleData.recovering([RecoveryRequestScreen(email: email)], now: start)
        let id = requestID(send(.input(.key(.enter)), to: &state))
        _ = send(.failure(.invalid(fieldErrors: ["email"], message: "Invalid email"), to: id), to: &state)
        #expect(state.top == AnyScreen(RecoveryRequestScreen(email: email, error: RecoveryRequestScreen.invalidText)))
        // Typing clears the message and keeps the text.
        _ = send(.input(.key(.backspace)), to: &state)
        #expect(state.top.as(RecoveryRequestScreen.self)?.error == nil)
        #expect(state.top.as(RecoveryRequestScreen.self)?.email.value == String(email.dropLast()))
    }

    @Test func tooManyRecoveriesCountDownOnTheClockThenSendingWorksAgain() {
        var state = SampleData.recovering([RecoveryRequestScreen(email: email)], now: start)
        let id = requestID(send(.input(.key(.enter)), to: &state))
        _ = send(.failure(.rateLimited(retryAfter: 45, message: "Too many"), to: id), to: &state)
        #expect(text(state).contains(RecoverySent.rateLimitedText))
        #expect(text(state).contains("Try again in 0:45"))
        // Refused while the wait lasts, however often Enter is pressed.
        #expect(requests(send(.input(.key(.enter)), to: &state, at: start + 10)).isEmpty)
        #expect(text(state).contains("Try again in 0:35"))
        _ = send(.tick, to: &state, at: start + 45)
        #expect(state.top.as(RecoveryRequestScreen.self)?.limit == nil)
        #expect(requests(send(.input(.key(.enter)), to: &state)) == [AnyRequest(Endpoint.StartRecovery(email: email))])
    }

    @Test func offlineSaysSoAndKeepsTheAddress() {
        var state = SampleData.recovering([RecoveryRequestScreen(email: email)], now: start)
        let id = requestID(send(.input(.key(.enter)), to: &state))
        _ = send(.failure(.offline(reason: "refused"), to: id), to: &state)
        #expect(state.top == AnyScreen(RecoveryRequestScreen(email: email, error: RecoveryRequestScreen.offlineText)))
        #expect(state.isOffline)
    }

    @Test func theSentScreenEditsResendsAndLeadsToSupport() {
        let sent = RecoverySentScreen(email: email, resendAfter: start + 30)
        var state = SampleData.recovering([RecoveryRequestScreen(email: email), sent], now: start)
        // Resend waits for the server's resend_after.
        #expect(requests(send(.input(.key(.character("r"))), to: &state)).isEmpty)
        _ = send(.tick, to: &state, at: start + 30)
        let id = requestID(send(.input(.key(.character("r"))), to: &state))
        #expect(state.top.as(RecoverySentScreen.self)?.isResending == true)
        _ = send(.failure(.rateLimited(retryAfter: 600, message: "Daily cap"), to: id), to: &state)
        #expect(state.top.as(RecoverySentScreen.self)?.resendAfter == start + 630)
        #expect(text(state).contains(RecoverySent.rateLimitedText))

        _ = send(.input(.key(.character("s"))), to: &state)
        #expect(state.top == AnyScreen(ContactSupportScreen(userId: nil)))
        _ = send(.input(.key(.escape)), to: &state)
        _ = send(.input(.key(.character("e"))), to: &state)
        #expect(state.top == AnyScreen(RecoveryRequestScreen(email: email)))
    }

    // MARK: - The link, from wherever it is opened

    @Test func theLinkFromTheOutboxOnTheSentScreenIsCheckedThenAsksForThePassword() {
        var state = SampleData.recovering(
            [RecoveryRequestScreen(email: email), RecoverySentScreen(email: email, resendAfter: start + 30)],
            now: start)
        state.overlay = .outbox(OutboxPanel(messages: [linkMessage()], isLoading: false))
        let effects = send(.input(.key(.enter)), to: &state)
        #expect(requests(effects) == [AnyRequest(CheckRecoveryLink(token: token))])
        #expect(state.top.base as? VerifyingLinkScreen == opening(at: start))
        let checked = CheckedRecoveryLink(
            link: RecoveryLink(email: email, expiresAt: start + 86_400), token: Secret(token))
        _ = send(.reply(checked, to: requestID(effects)), to: &state, at: start + 1)
        #expect(state.top == AnyScreen(RecoveryPasswordScreen(email: email, token: Secret(token))))
        #expect(text(state).contains("Enter the password for \(email)."))
        #expect(!text(state).contains(token))
    }

    /// Finishing a recovery signs in with a limited session; opened while signed in, the link would replace
    /// this session, perhaps with another account's. It says so and leaves the session alone.
    @Test func aRecoveryLinkOpenedWhileSignedInLeavesTheSessionAlone() {
        var state = SampleData.state([HubScreen()], now: start)
        let hub = state.stack
        let asked = send(.openLink("https://321.fit/recover?token=\(token)"), to: &state)
        let live = LinkInfo(kind: .init(.recovery), state: .init(.live), expiresAt: start + 86_400)
        let effects = send(.reply(live, to: requestID(asked)), to: &state)
        #expect(state.top.base as? VerifyingLinkScreen == opening(at: start))
        let checked = CheckedRecoveryLink(
            link: RecoveryLink(email: email, expiresAt: start + 86_400), token: Secret(token))
        _ = send(.reply(checked, to: requestID(effects)), to: &state, at: start + 1)
        #expect(state.stack == hub)
        #expect(state.toast?.message == AccountRecoveryLink.signedInText)
        #expect(state.methods != nil)
    }

    @Test func aRecoveryLinkNobodyWaitsForFindsThePasswordScreen() {
        // The outbox used from the sign-in screen.
        var fromOutbox = SampleData.recovering([], now: start)
        fromOutbox.overlay = .outbox(OutboxPanel(messages: [linkMessage()], isLoading: false))
        _ = send(.input(.key(.enter)), to: &fromOutbox)
        #expect(fromOutbox.top.base as? VerifyingLinkScreen == opening(at: start))

        // `accessdeck open-link URL`.
        var handedOver = SampleData.recovering([], now: start)
        let asked = send(.openLink("https://321.fit/recover?token=\(token)"), to: &handedOver)
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        let live = LinkInfo(kind: .init(.recovery), state: .init(.live), expiresAt: start + 86_400)
        let effects = send(.reply(live, to: requestID(asked)), to: &handedOver)
        #expect(handedOver.top.base as? VerifyingLinkScreen == opening(at: start))
        #expect(requests(effects) == [AnyRequest(CheckRecoveryLink(token: token))])

        // Pasted where the sent screen waits.
        var pasted = SampleData.recovering([RecoverySentScreen(email: email, resendAfter: start + 30)], now: start)
        _ = send(.input(.paste("https://321.fit/recover?token=\(token)\n")), to: &pasted)
        #expect(pasted.top.base as? VerifyingLinkScreen == opening(at: start))
        var garbage = SampleData.recovering([RecoverySentScreen(email: email, resendAfter: start + 30)], now: start)
        _ = send(.input(.paste("not a link at all")), to: &garbage)
        #expect(garbage.top.as(RecoverySentScreen.self)?.error == RecoverySentScreen.notALinkText)
    }

    @Test func theOutboxNamesWhatARecoverySends() {
        let titles = SampleData.recoveryOutbox(at: start).map { OutboxPanel.describe($0, now: start).title }
        #expect(
            titles == [
                "Email to \(email) · new device signed in", "Email to \(email) · account recovered",
                "Email to \(email) · sign-in locked after failed attempts", "Email to \(email) · recovery link",
                "SMS to +995 511 300 000 · recovery requested",
            ])
    }

    @Test func anExpiredLinkLeadsBackToTheRequest() {
        var state = SampleData.recovering(
            [RecoveryRequestScreen(email: email), RecoverySentScreen(email: email, resendAfter: start + 30)],
            now: start)
        let effects = send(.openLink("https://321.fit/recover?token=\(token)"), to: &state)
        _ = send(.failure(.codeExpired(message: "Link expired"), to: requestID(effects)), to: &state, at: start + 1)
        #expect(state.top == AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(AccountRecoveryLink()))))
        #expect(text(state).contains("Request a new link"))
        #expect(text(state).contains("24 hours"))
        _ = send(.input(.key(.enter)), to: &state)
        // One request screen, fresh, where the old one was.
        #expect(state.stack == [signInRecovering, AnyScreen(RecoveryRequestScreen())])

        // A token the backend does not know leads to the same place.
        let unknown = APIError.server(status: 404, code: "link_not_found", message: "Not found")
        #expect(CheckRecoveryLink.asSeen(unknown) == .codeExpired(message: "Not found"))
        let other = APIError.server(status: 404, code: "not_found", message: "No route")
        #expect(CheckRecoveryLink.asSeen(other) == other)
    }

    // MARK: - The password

    func passwordState(_ screen: RecoveryPasswordScreen) -> AppState {
        SampleData.recovering([screen], now: start)
    }

    @Test func aWrongPasswordIsSaidAndClearedAndTheLinkStillWorks() {
        var state = passwordState(RecoveryPasswordScreen(email: email, token: Secret(token), password: "wrong-one-1"))
        let effects = send(.input(.key(.enter)), to: &state)
        #expect(requests(effects) == [AnyRequest(CompleteRecovery(token: Secret(token), password: "wrong-one-1"))])
        _ = send(
            .failure(.passwordIncorrect(attemptsRemaining: nil, message: "Invalid"), to: requestID(effects)),
            to: &state)
        #expect(
            state.top
                == AnyScreen(
                    RecoveryPasswordScreen(
                        email: email, token: Secret(token), error: RecoveryPasswordScreen.wrongPasswordText)))
        #expect(text(state).contains("That password isn't right. Try again."))
    }

    @Test func theLockoutCountsDownOnTheClock() {
        var state = passwordState(RecoveryPasswordScreen(email: email, token: Secret(token), password: "wrong-one-3"))
        let effects = send(.input(.key(.enter)), to: &state)
        _ = send(.failure(.rateLimited(retryAfter: 30, message: "Locked"), to: requestID(effects)), to: &state)
        #expect(state.top.as(RecoveryPasswordScreen.self)?.lockedUntil == start + 30)
        #expect(state.top.as(RecoveryPasswordScreen.self)?.password.value == "")
        #expect(text(state).contains("Too many attempts. Try again in 0:30"))
        for character in "correct-horse-42" { _ = send(.input(.key(.character(character))), to: &state) }
        #expect(requests(send(.input(.key(.enter)), to: &state, at: start + 12)).isEmpty)
        #expect(text(state).contains("Try again in 0:18"))
        _ = send(.tick, to: &state, at: start + 30)
        #expect(state.top.as(RecoveryPasswordScreen.self)?.lockedUntil == nil)
        #expect(
            requests(send(.input(.key(.enter)), to: &state))
                == [AnyRequest(CompleteRecovery(token: Secret(token), password: "correct-horse-42"))])
    }

    @Test func theLinkDyingBeforeThePasswordIsLinkExpired() {
        for failure in [
            APIError.codeExpired(message: "Used"), .server(status: 404, code: "link_not_found", message: "Not found"),
        ] {
            var state = passwordState(RecoveryPasswordScreen(email: email, token: Secret(token), password: "pw"))
            let effects = send(.input(.key(.enter)), to: &state)
            _ = send(.failure(failure, to: requestID(effects)), to: &state)
            #expect(state.top == AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(AccountRecoveryLink()))))
        }
    }

    @Test func theRightPasswordLandsOnSettingsWithLimitedAccess() {
        var state = passwordState(
            RecoveryPasswordScreen(email: email, token: Secret(token), password: "correct-horse-42"))
        let effects = send(.input(.key(.enter)), to: &state)
        _ = send(.reply(signedIn(SampleData.limitedProfile), to: requestID(effects)), to: &state)
        #expect(state.stack == [AnyScreen(SettingsScreen())])
        #expect(state.profile == SampleData.limitedProfile)
        #expect(text(state).contains(LimitedAccess.bannerText))
        #expect(text(state).contains("Verify your phone"))
    }

    // MARK: - Limited access

    @Test func everyChangeOnTheHubOpensTheSheetAndNothingElse() {
        var state = SampleData.limitedState([HubScreen()], now: start)
        let rows = HubScreen.rows(SampleData.everyMethod, platform: .ios)
        #expect(rows.count == 7)
        for (index, row) in rows.enumerated() {
            if index > 0 { _ = send(.input(.key(.down)), to: &state) }
            let effects = send(.input(.key(.enter)), to: &state)
            if row.kind == .sessions {
                // Seeing where you're signed in changes nothing: Active sessions opens with limited access too.
                #expect(state.top.as(ActiveSessionsScreen.self) != nil)
                #expect(effects.count == 1)
                _ = send(.input(.key(.escape)), to: &state)
                continue
            }
            #expect(effects.isEmpty, "\(row.title)")
            #expect(state.overlay == .sheet(.limitedAccess), "\(row.title)")
            #expect(state.stack.count == 2, "\(row.title)")
            _ = send(.input(.key(.escape)), to: &state)
        }
        #expect(text(state).contains("+995 511 100 000"))

        // With full access the same key starts the change.
        var full = SampleData.limitedState([HubScreen()], now: start)
        full.profile?.access = .init(.full)
        _ = send(.input(.key(.enter)), to: &full)
        #expect(full.overlay != .sheet(.limitedAccess))
    }

    @Test func aLimitedAccessRefusalFromTheServerShowsTheSameSheet() {
        var state = SampleData.state(
            [EnterPhoneScreen(flow: .changePhone, current: "+995511100000", number: "511 200 300", isWorking: true)],
            now: start
        ).topWaiting(Endpoint.RequestOtp.self, EnterPhoneScreen.Reply.code)
        _ = send(
            .failure(.server(status: 403, code: "limited_access", message: "Verify your phone first")), to: &state)
        #expect(state.overlay == .sheet(.limitedAccess))
        #expect(state.top.as(EnterPhoneScreen.self)?.isWorking == false)

        var other = SampleData.state([EnterPhoneScreen(flow: .changePhone, current: nil)], now: start)
            .topWaiting(Endpoint.RequestOtp.self, EnterPhoneScreen.Reply.code)
        _ = send(.failure(.server(status: 403, code: "forbidden", message: "No")), to: &other)
        #expect(other.overlay == nil)
    }

    // MARK: - The phone, verified again

    @Test func verifyingThePhoneRestoresFullAccess() {
        var state = SampleData.limitedState([], now: start)
        state.reauth = ReauthGrant(reauthToken: "ra_old", expiresAt: start + 900, method: .init(.email))
        _ = send(.input(.key(.enter)), to: &state)
        #expect(
            state.top == AnyScreen(EnterPhoneScreen(flow: .reverifyPhone, current: SampleData.everyMethod.phone)))
        #expect(text(state).contains("Your old number (+995 511 100 000) or a new one"))
        _ = send(.input(.paste("+995 511 300 000")), to: &state)
        let sent = send(.input(.key(.enter)), to: &state)
        // The limited session is the proof: no re-auth token goes with it, even one still held.
        #expect(
            requests(sent)
                == [AnyRequest(Endpoint.RequestOtp(phone: "+995511300000", purpose: .reverifyPhone, reauthToken: nil))])
        let accepted = OTPRequestAccepted(
            requestId: "otp_1", phone: "+995511300000", purpose: .init(.reverifyPhone), expiresAt: start + 300,
            resendAfter: start + 30)
        _ = send(.reply(accepted, to: requestID(sent)), to: &state)
        #expect(state.top == AnyScreen(EnterCodeScreen(flow: .reverifyPhone, accepted: accepted)))

        var code = state
        var typed: [Effect] = []
        for digit in "123456" { typed = send(.input(.key(.character(digit))), to: &code) }
        #expect(
            requests(typed)
                == [AnyRequest(Endpoint.VerifyOtp(requestId: "otp_1", code: "123456", reauthToken: nil))])
        let verified = VerifyOTPResult(purpose: .init(.reverifyPhone), authMethods: SampleData.everyMethod)
        let fetch = send(.reply(verified, to: requestID(typed)), to: &code)
        #expect(requests(fetch) == [AnyRequest(Endpoint.GetProfile())])
        var restored = SampleData.limitedProfile
        restored.access = .init(.full)
        _ = send(.reply(restored, to: requestID(fetch)), to: &code)
        #expect(code.stack == [AnyScreen(SettingsScreen())])
        #expect(code.profile == restored)
        #expect(code.toast?.message == LimitedAccess.restoredText)
        #expect(!text(code).contains(LimitedAccess.bannerText))
        #expect(text(code).contains("Other devices were signed out."))
    }

    @Test func aProfileThatCannotBeFetchedAfterTheCodeIsStillFull() {
        let accepted = OTPRequestAccepted(
            requestId: "otp_1", phone: "+995511300000", purpose: .init(.reverifyPhone), expiresAt: start + 300,
            resendAfter: start + 30)
        var state = SampleData.limitedState(
            [EnterCodeScreen(flow: .reverifyPhone, accepted: accepted)], now: start
        ).topWaiting(Endpoint.VerifyOtp.self, EnterCodeScreen.Reply.verify)
        let fetch = send(.reply(VerifyOTPResult(purpose: .init(.reverifyPhone))), to: &state)
        _ = send(.failure(.offline(reason: "refused"), to: requestID(fetch)), to: &state)
        #expect(state.profile?.access?.known == .full)
        #expect(state.stack == [AnyScreen(SettingsScreen())])
    }

    @Test func signingOutForgetsTheLimitedProfile() {
        var state = SampleData.limitedState([HubScreen()], now: start).topWaiting(
            LoadAuthMethods.self, HubScreen.Reply.methods)
        _ = send(.failure(.signedOut), to: &state)
        #expect(state.profile == nil)
        #expect(state.methods == nil)
        #expect(state.top.is(ScreenType(SignInScreen.self)))
    }
}
