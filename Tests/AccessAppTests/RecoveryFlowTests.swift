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

    /// Sends `action` at `now` (the clock moved on to it first, its timers run), or at once.
    func send(_ action: Action, to harness: ReducerHarness, at now: Date? = nil) -> [Effect] {
        if let now { harness.advance(by: now.timeIntervalSince(harness.now)) }
        return harness.send(action)
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
        let state = SampleData.recovering([], now: start)
        #expect(text(state).contains("Can't access your account?"))
        let harness = ReducerHarness(state, exhaustivity: .off)
        _ = send(.input(.key(.enter)), to: harness)
        #expect(harness.state.top == AnyScreen(RecoveryRequestScreen()))
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
            let harness = ReducerHarness(
                SampleData.recovering([RecoveryRequestScreen(email: address)], now: start), exhaustivity: .off)
            let id = requestID(send(.input(.key(.enter)), to: harness))
            _ = send(.reply(RecoveryStarted(email: address, resendAfter: start + 30), to: id), to: harness)
            return text(harness.state).replacingOccurrences(of: address, with: "ADDRESS")
        }
        #expect(screenText(for: email) == screenText(for: "nobody.xyz@mail.com"))
        #expect(screenText(for: email).contains("If an account uses ADDRESS, we've sent it a link"))
    }

    @Test func anInvalidAddressIsSaidInlineBeforeAndAfterTheServerAndKept() {
        var harness = ReducerHarness(
            SampleData.recovering([RecoveryRequestScreen(email: "lost.phone@mail")], now: start), exhaustivity: .off)
        #expect(send(.input(.key(.enter)), to: harness).isEmpty)
        #expect(
            harness.state.top
                == AnyScreen(
                    RecoveryRequestScreen(email: "lost.phone@mail", error: OnScreenMessage.invalidEmail.text)))

        harness = ReducerHarness(
            SampleData.recovering([RecoveryRequestScreen(email: email)], now: start), exhaustivity: .off)
        let id = requestID(send(.input(.key(.enter)), to: harness))
        _ = send(.failure(.invalid(fieldErrors: ["email"], message: "Invalid email"), to: id), to: harness)
        #expect(
            harness.state.top
                == AnyScreen(RecoveryRequestScreen(email: email, error: RecoveryRequestScreen.invalidText)))
        // Typing clears the message and keeps the text.
        _ = send(.input(.key(.backspace)), to: harness)
        #expect(harness.state.top.as(RecoveryRequestScreen.self)?.error == nil)
        #expect(harness.state.top.as(RecoveryRequestScreen.self)?.email.value == String(email.dropLast()))
    }

    @Test func tooManyRecoveriesCountDownOnTheClockThenSendingWorksAgain() {
        let harness = ReducerHarness(
            SampleData.recovering([RecoveryRequestScreen(email: email)], now: start), exhaustivity: .off)
        let id = requestID(send(.input(.key(.enter)), to: harness))
        _ = send(.failure(.rateLimited(retryAfter: 45, message: "Too many"), to: id), to: harness)
        #expect(text(harness.state).contains(RecoverySent.rateLimitedText))
        #expect(text(harness.state).contains("Try again in 0:45"))
        // Refused while the wait lasts, however often Enter is pressed.
        #expect(requests(send(.input(.key(.enter)), to: harness, at: start + 10)).isEmpty)
        #expect(text(harness.state).contains("Try again in 0:35"))
        _ = send(.tick, to: harness, at: start + 45)
        #expect(harness.state.top.as(RecoveryRequestScreen.self)?.limit == nil)
        #expect(requests(send(.input(.key(.enter)), to: harness)) == [AnyRequest(Endpoint.StartRecovery(email: email))])
    }

    @Test func offlineSaysSoAndKeepsTheAddress() {
        let harness = ReducerHarness(
            SampleData.recovering([RecoveryRequestScreen(email: email)], now: start), exhaustivity: .off)
        let id = requestID(send(.input(.key(.enter)), to: harness))
        _ = send(.failure(.offline(reason: "refused"), to: id), to: harness)
        #expect(
            harness.state.top
                == AnyScreen(RecoveryRequestScreen(email: email, error: RecoveryRequestScreen.offlineText)))
        #expect(harness.state.isOffline)
    }

    @Test func theSentScreenEditsResendsAndLeadsToSupport() {
        let sent = RecoverySentScreen(email: email, resendAfter: start + 30)
        let state = SampleData.recovering([RecoveryRequestScreen(email: email), sent], now: start)
        // Resend waits for the server's resend_after.
        let harness = ReducerHarness(state, exhaustivity: .off)
        #expect(requests(send(.input(.key(.character("r"))), to: harness)).isEmpty)
        _ = send(.tick, to: harness, at: start + 30)
        let id = requestID(send(.input(.key(.character("r"))), to: harness))
        #expect(harness.state.top.as(RecoverySentScreen.self)?.isResending == true)
        _ = send(.failure(.rateLimited(retryAfter: 600, message: "Daily cap"), to: id), to: harness)
        #expect(harness.state.top.as(RecoverySentScreen.self)?.resendAfter == start + 630)
        #expect(text(harness.state).contains(RecoverySent.rateLimitedText))

        _ = send(.input(.key(.character("s"))), to: harness)
        #expect(harness.state.top.as(ContactSupportScreen.self)?.ticket.who == .email(email))
        _ = send(.input(.key(.escape)), to: harness)
        _ = send(.input(.key(.character("e"))), to: harness)
        #expect(harness.state.top == AnyScreen(RecoveryRequestScreen(email: email)))
    }

    // MARK: - The link, from wherever it is opened

    @Test func theLinkFromTheOutboxOnTheSentScreenIsCheckedThenAsksForThePassword() {
        var state = SampleData.recovering(
            [RecoveryRequestScreen(email: email), RecoverySentScreen(email: email, resendAfter: start + 30)],
            now: start)
        state.overlay = .outbox(OutboxPanel(messages: [linkMessage()], isLoading: false))
        let harness = ReducerHarness(state, exhaustivity: .off)
        let effects = send(.input(.key(.enter)), to: harness)
        #expect(requests(effects) == [AnyRequest(CheckRecoveryLink(token: token))])
        #expect(harness.state.top.base as? VerifyingLinkScreen == opening(at: start))
        let checked = CheckedRecoveryLink(
            link: RecoveryLink(email: email, expiresAt: start + 86_400), token: Secret(token))
        _ = send(.reply(checked, to: requestID(effects)), to: harness, at: start + 1)
        #expect(harness.state.top == AnyScreen(RecoveryPasswordScreen(email: email, token: Secret(token))))
        #expect(text(harness.state).contains("Enter the password for \(email)."))
        #expect(!text(harness.state).contains(token))
    }

    /// Finishing a recovery signs in with a limited session; opened while signed in, the link would replace
    /// this session, perhaps with another account's. It says so and leaves the session alone.
    @Test func aRecoveryLinkOpenedWhileSignedInLeavesTheSessionAlone() {
        let state = SampleData.state([HubScreen()], now: start)
        let hub = state.stack
        let harness = ReducerHarness(state, exhaustivity: .off)
        let asked = send(.openLink("https://321.fit/recover?token=\(token)"), to: harness)
        let live = LinkInfo(kind: .init(.recovery), state: .init(.live), expiresAt: start + 86_400)
        let effects = send(.reply(live, to: requestID(asked)), to: harness)
        #expect(harness.state.top.base as? VerifyingLinkScreen == opening(at: start))
        let checked = CheckedRecoveryLink(
            link: RecoveryLink(email: email, expiresAt: start + 86_400), token: Secret(token))
        _ = send(.reply(checked, to: requestID(effects)), to: harness, at: start + 1)
        #expect(harness.state.stack == hub)
        #expect(harness.state.toast?.message == AccountRecoveryLink.signedInText)
        #expect(harness.state.methods != nil)
    }

    @Test func aRecoveryLinkNobodyWaitsForFindsThePasswordScreen() {
        // The outbox used from the sign-in screen.
        var fromOutbox = SampleData.recovering([], now: start)
        fromOutbox.overlay = .outbox(OutboxPanel(messages: [linkMessage()], isLoading: false))
        let fromOutboxHarness = ReducerHarness(fromOutbox, exhaustivity: .off)
        let inspecting = send(.input(.key(.enter)), to: fromOutboxHarness)
        #expect(requests(inspecting) == [AnyRequest(Endpoint.InspectLink(token: token))])
        let recoveryLink = LinkInfo(kind: .init(.recovery), state: .init(.live), expiresAt: start + 86_400)
        _ = send(.reply(recoveryLink, to: requestID(inspecting)), to: fromOutboxHarness)
        #expect(fromOutboxHarness.state.top.base as? VerifyingLinkScreen == opening(at: start))

        // `accessdeck open-link URL`.
        let handedOverHarness = ReducerHarness(SampleData.recovering([], now: start), exhaustivity: .off)
        let asked = send(.openLink("https://321.fit/recover?token=\(token)"), to: handedOverHarness)
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        let live = LinkInfo(kind: .init(.recovery), state: .init(.live), expiresAt: start + 86_400)
        let effects = send(.reply(live, to: requestID(asked)), to: handedOverHarness)
        #expect(handedOverHarness.state.top.base as? VerifyingLinkScreen == opening(at: start))
        #expect(requests(effects) == [AnyRequest(CheckRecoveryLink(token: token))])

        // Pasted where the sent screen waits.
        let pastedHarness = ReducerHarness(
            SampleData.recovering([RecoverySentScreen(email: email, resendAfter: start + 30)], now: start),
            exhaustivity: .off)
        _ = send(.input(.paste("https://321.fit/recover?token=\(token)\n")), to: pastedHarness)
        #expect(pastedHarness.state.top.base as? VerifyingLinkScreen == opening(at: start))
        let garbageHarness = ReducerHarness(
            SampleData.recovering([RecoverySentScreen(email: email, resendAfter: start + 30)], now: start),
            exhaustivity: .off)
        _ = send(.input(.paste("not a link at all")), to: garbageHarness)
        #expect(garbageHarness.state.top.as(RecoverySentScreen.self)?.error == RecoverySentScreen.notALinkText)
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
        let state = SampleData.recovering(
            [RecoveryRequestScreen(email: email), RecoverySentScreen(email: email, resendAfter: start + 30)],
            now: start)
        let harness = ReducerHarness(state, exhaustivity: .off)
        let effects = send(.openLink("https://321.fit/recover?token=\(token)"), to: harness)
        _ = send(.failure(.codeExpired(message: "Link expired"), to: requestID(effects)), to: harness, at: start + 1)
        #expect(harness.state.top == AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(AccountRecoveryLink()))))
        #expect(text(harness.state).contains("Request a new link"))
        #expect(text(harness.state).contains("24 hours"))
        _ = send(.input(.key(.enter)), to: harness)
        // One request screen, fresh, where the old one was.
        #expect(harness.state.stack == [signInRecovering, AnyScreen(RecoveryRequestScreen())])

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
        let harness = ReducerHarness(
            passwordState(RecoveryPasswordScreen(email: email, token: Secret(token), password: "wrong-one-1")),
            exhaustivity: .off)
        let effects = send(.input(.key(.enter)), to: harness)
        #expect(requests(effects) == [AnyRequest(CompleteRecovery(token: Secret(token), password: "wrong-one-1"))])
        _ = send(
            .failure(.passwordIncorrect(attemptsRemaining: nil, message: "Invalid"), to: requestID(effects)),
            to: harness)
        #expect(
            harness.state.top
                == AnyScreen(
                    RecoveryPasswordScreen(
                        email: email, token: Secret(token), error: RecoveryPasswordScreen.wrongPasswordText)))
        #expect(text(harness.state).contains("That password isn't right. Try again."))
    }

    @Test func theLockoutCountsDownOnTheClock() {
        let harness = ReducerHarness(
            passwordState(RecoveryPasswordScreen(email: email, token: Secret(token), password: "wrong-one-3")),
            exhaustivity: .off)
        let effects = send(.input(.key(.enter)), to: harness)
        _ = send(.failure(.rateLimited(retryAfter: 30, message: "Locked"), to: requestID(effects)), to: harness)
        #expect(harness.state.top.as(RecoveryPasswordScreen.self)?.lockedUntil == start + 30)
        #expect(harness.state.top.as(RecoveryPasswordScreen.self)?.password.value == "")
        #expect(text(harness.state).contains("Too many attempts. Try again in 0:30"))
        for character in "correct-horse-42" { _ = send(.input(.key(.character(character))), to: harness) }
        #expect(requests(send(.input(.key(.enter)), to: harness, at: start + 12)).isEmpty)
        #expect(text(harness.state).contains("Try again in 0:18"))
        _ = send(.tick, to: harness, at: start + 30)
        #expect(harness.state.top.as(RecoveryPasswordScreen.self)?.lockedUntil == nil)
        #expect(
            requests(send(.input(.key(.enter)), to: harness))
                == [AnyRequest(CompleteRecovery(token: Secret(token), password: "correct-horse-42"))])
    }

    @Test func theLinkDyingBeforeThePasswordIsLinkExpired() {
        for failure in [
            APIError.codeExpired(message: "Used"), .server(status: 404, code: "link_not_found", message: "Not found"),
        ] {
            let harness = ReducerHarness(
                passwordState(RecoveryPasswordScreen(email: email, token: Secret(token), password: "pw")),
                exhaustivity: .off)
            let effects = send(.input(.key(.enter)), to: harness)
            _ = send(.failure(failure, to: requestID(effects)), to: harness)
            #expect(harness.state.top == AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(AccountRecoveryLink()))))
        }
    }

    @Test func theRightPasswordLandsOnSettingsWithLimitedAccess() {
        let state = passwordState(
            RecoveryPasswordScreen(email: email, token: Secret(token), password: "correct-horse-42"))
        let harness = ReducerHarness(state, exhaustivity: .off)
        let effects = send(.input(.key(.enter)), to: harness)
        _ = send(.reply(signedIn(SampleData.limitedProfile), to: requestID(effects)), to: harness)
        #expect(harness.state.stack == [AnyScreen(SettingsScreen())])
        #expect(harness.state.profile == SampleData.limitedProfile)
        #expect(text(harness.state).contains(LimitedAccess.bannerText))
        #expect(text(harness.state).contains("Verify your phone"))
    }

    // MARK: - Limited access

    @Test func everyChangeOnTheHubOpensTheSheetAndNothingElse() {
        let harness = ReducerHarness(SampleData.limitedState([HubScreen()], now: start), exhaustivity: .off)
        let rows = HubScreen.rows(SampleData.everyMethod, platform: .ios)
        #expect(rows.count == 8)
        for (index, row) in rows.enumerated() {
            if index > 0 { _ = send(.input(.key(.down)), to: harness) }
            let effects = send(.input(.key(.enter)), to: harness)
            if row.kind == .sessions {
                // Seeing where you're signed in changes nothing: Active sessions opens with limited access too.
                #expect(harness.state.top.as(ActiveSessionsScreen.self) != nil)
                #expect(effects.count == 1)
                _ = send(.input(.key(.escape)), to: harness)
                continue
            }
            #expect(effects.isEmpty, "\(row.title)")
            #expect(harness.state.overlay == .sheet(.limitedAccess), "\(row.title)")
            #expect(harness.state.stack.count == 2, "\(row.title)")
            _ = send(.input(.key(.escape)), to: harness)
        }
        #expect(text(harness.state).contains("+995 511 100 000"))

        // With full access the same key starts the change.
        var full = SampleData.limitedState([HubScreen()], now: start)
        full.profile?.access = .init(.full)
        let fullHarness = ReducerHarness(full, exhaustivity: .off)
        _ = send(.input(.key(.enter)), to: fullHarness)
        #expect(fullHarness.state.overlay != .sheet(.limitedAccess))
    }

    @Test func aLimitedAccessRefusalFromTheServerShowsTheSameSheet() {
        let state = SampleData.state(
            [EnterPhoneScreen(flow: .changePhone, current: "+995511100000", number: "511 200 300", isWorking: true)],
            now: start
        ).topWaiting(Endpoint.RequestOtp.self, EnterPhoneScreen.Reply.code)
        let harness = ReducerHarness(state, exhaustivity: .off)
        _ = send(
            .failure(.server(status: 403, code: "limited_access", message: "Verify your phone first")), to: harness)
        #expect(harness.state.overlay == .sheet(.limitedAccess))
        #expect(harness.state.top.as(EnterPhoneScreen.self)?.isWorking == false)

        let other = SampleData.state([EnterPhoneScreen(flow: .changePhone, current: nil)], now: start)
            .topWaiting(Endpoint.RequestOtp.self, EnterPhoneScreen.Reply.code)
        let otherHarness = ReducerHarness(other, exhaustivity: .off)
        _ = send(.failure(.server(status: 403, code: "forbidden", message: "No")), to: otherHarness)
        #expect(otherHarness.state.overlay == nil)
    }

    // MARK: - The phone, verified again

    @Test func verifyingThePhoneRestoresFullAccess() {
        var state = SampleData.limitedState([], now: start)
        state.reauth = ReauthGrant(reauthToken: "ra_old", expiresAt: start + 900, method: .init(.email))
        let harness = ReducerHarness(state, exhaustivity: .off)
        _ = send(.input(.key(.enter)), to: harness)
        #expect(
            harness.state.top
                == AnyScreen(EnterPhoneScreen(flow: .reverifyPhone, current: SampleData.everyMethod.phone)))
        #expect(text(harness.state).contains("Your old number (+995 511 100 000) or a new one"))
        _ = send(.input(.paste("+995 511 300 000")), to: harness)
        let sent = send(.input(.key(.enter)), to: harness)
        // The limited session is the proof: no re-auth token goes with it, even one still held.
        #expect(
            requests(sent)
                == [AnyRequest(Endpoint.RequestOtp(phone: "+995511300000", purpose: .reverifyPhone, reauthToken: nil))])
        let accepted = OTPRequestAccepted(
            requestId: "otp_1", phone: "+995511300000", purpose: .init(.reverifyPhone), expiresAt: start + 300,
            resendAfter: start + 30)
        _ = send(.reply(accepted, to: requestID(sent)), to: harness)
        #expect(harness.state.top == AnyScreen(EnterCodeScreen(flow: .reverifyPhone, accepted: accepted)))

        let code = harness.state
        var typed: [Effect] = []
        let codeHarness = ReducerHarness(code, exhaustivity: .off)
        for digit in "123456" { typed = send(.input(.key(.character(digit))), to: codeHarness) }
        #expect(
            requests(typed)
                == [AnyRequest(Endpoint.VerifyOtp(requestId: "otp_1", code: "123456", reauthToken: nil))])
        let verified = VerifyOTPResult(purpose: .init(.reverifyPhone), authMethods: SampleData.everyMethod)
        let fetch = send(.reply(verified, to: requestID(typed)), to: codeHarness)
        #expect(requests(fetch) == [AnyRequest(Endpoint.GetProfile())])
        var restored = SampleData.limitedProfile
        restored.access = .init(.full)
        _ = send(.reply(restored, to: requestID(fetch)), to: codeHarness)
        #expect(codeHarness.state.stack == [AnyScreen(SettingsScreen())])
        #expect(codeHarness.state.profile == restored)
        #expect(codeHarness.state.toast?.message == LimitedAccess.restoredText)
        #expect(!text(codeHarness.state).contains(LimitedAccess.bannerText))
        #expect(text(codeHarness.state).contains("Other devices were signed out."))
    }

    @Test func aProfileThatCannotBeFetchedAfterTheCodeIsStillFull() {
        let accepted = OTPRequestAccepted(
            requestId: "otp_1", phone: "+995511300000", purpose: .init(.reverifyPhone), expiresAt: start + 300,
            resendAfter: start + 30)
        let state = SampleData.limitedState(
            [EnterCodeScreen(flow: .reverifyPhone, accepted: accepted)], now: start
        ).topWaiting(Endpoint.VerifyOtp.self, EnterCodeScreen.Reply.verify)
        let harness = ReducerHarness(state, exhaustivity: .off)
        let fetch = send(.reply(VerifyOTPResult(purpose: .init(.reverifyPhone))), to: harness)
        _ = send(.failure(.offline(reason: "refused"), to: requestID(fetch)), to: harness)
        #expect(harness.state.profile?.access?.known == .full)
        #expect(harness.state.stack == [AnyScreen(SettingsScreen())])
    }

    @Test func signingOutForgetsTheLimitedProfile() {
        let state = SampleData.limitedState([HubScreen()], now: start).topWaiting(
            LoadAuthMethods.self, HubScreen.Reply.methods)
        let harness = ReducerHarness(state, exhaustivity: .off)
        _ = send(.failure(.signedOut), to: harness)
        #expect(harness.state.profile == nil)
        #expect(harness.state.methods == nil)
        #expect(harness.state.top.is(ScreenType(SignInScreen.self)))
    }
}
