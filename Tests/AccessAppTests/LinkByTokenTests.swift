import AccessAPI
import AccessAppTesting
import Foundation
import Testing

@testable import AccessApp

/// Issue 27: a link handed over or pasted with nothing waiting for it is known by its token, not its URL's
/// shape. The backend is asked what the token is (never spending it) and its kind says where it goes; the
/// revert link asks first; used, superseded, expired and unknown links get their screens.
@Suite struct LinkByTokenTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let token = "lk_AbCdEfGhIjKlMnOpQrStUv"

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

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

    func info(_ kind: LinkKind, _ state: LinkState = .live) -> LinkInfo {
        LinkInfo(kind: .init(kind), state: .init(state), expiresAt: start + 1800)
    }

    /// Opens `link` over Settings and answers the inspection with `answer`.
    func open(_ link: String, answer: LinkInfo) -> (AppState, [Effect]) {
        let harness = ReducerHarness(SampleData.state([SettingsScreen()], now: start), exhaustivity: .off)
        let asked = harness.send(.openLink(link))
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        #expect(harness.state.top.as(CheckingLinkScreen.self) == CheckingLinkScreen(token: Secret(token)))
        #expect(!text(harness.state).contains(token))
        let effects = harness.send(.reply(answer, to: requestID(asked)))
        return (harness.state, effects)
    }

    @Test(arguments: [
        "https://example.test/email/revert?token=lk_AbCdEfGhIjKlMnOpQrStUv",
        "https://mail.example/l/lk_AbCdEfGhIjKlMnOpQrStUv",
        "lk_AbCdEfGhIjKlMnOpQrStUv",
        "  http://127.0.0.1:8080/anything/at/all?utm=1&token=lk_AbCdEfGhIjKlMnOpQrStUv \n",
    ])
    func anyURLShapeOrABareTokenIsAskedAbout(link: String) {
        let harness = ReducerHarness(SampleData.state([SettingsScreen()], now: start), exhaustivity: .off)
        let asked = harness.send(.openLink(link))
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
    }

    @Test func aLiveEmailChangeLinkOpensByItsKind() {
        for kind in [LinkKind.emailChange, .emailAdd] {
            let (state, effects) = open("https://example.test/x?token=\(token)", answer: info(kind))
            #expect(requests(effects) == [AnyRequest(VerifyEmailLink(token: token))])
            #expect(state.top.as(VerifyingLinkScreen.self)?.link == AnyLinkPurpose(EmailChangeLink()))
        }
        let (registered, registerEffects) = open(token, answer: info(.register))
        #expect(requests(registerEffects) == [AnyRequest(Endpoint.ConfirmRegistration(token: token))])
        #expect(registered.top.as(VerifyingLinkScreen.self)?.link == AnyLinkPurpose(RegistrationLink()))
        let (recovering, recoveryEffects) = open(token, answer: info(.recovery))
        #expect(requests(recoveryEffects) == [AnyRequest(CheckRecoveryLink(token: token))])
        #expect(recovering.top.as(VerifyingLinkScreen.self)?.link == AnyLinkPurpose(AccountRecoveryLink()))
    }

    /// The revert link signs every session out: a sheet asks, on Cancel; Cancel leaves everything as it was,
    /// "Undo the change" opens it.
    @Test func theRevertLinkAsksFirstOnCancel() throws {
        var (state, effects) = open("https://example.test/email/revert?token=\(token)", answer: info(.emailRevert))
        #expect(requests(effects).isEmpty)
        let sheet = try #require(state.overlay?.as(Sheet.self))
        #expect(sheet.sheet.actions.map(\.title) == ["Undo the change", "Cancel"])
        #expect(sheet.sheet.selectedAction == 1)
        #expect(text(state).contains("signs every session out"))

        let cancelledHarness = ReducerHarness(state, exhaustivity: .off)
        cancelledHarness.send(.input(.key(.enter)))
        #expect(cancelledHarness.state.overlay == nil)
        #expect(cancelledHarness.state.stack == SampleData.state([SettingsScreen()], now: start).stack)

        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.up)))
        effects = harness.send(.input(.key(.enter)))
        #expect(requests(effects) == [AnyRequest(Endpoint.RevertEmailChange(token: token))])
        #expect(harness.state.top.as(VerifyingLinkScreen.self)?.link == AnyLinkPurpose(RevertEmailLink()))
    }

    /// Issue 48 item 9: one road for a link. The revert link chosen in the outbox with nothing waiting for it
    /// goes where `accessdeck open-link` sends it: the backend is asked what it is, and the same sheet asks,
    /// on Cancel, before every session is signed out; nothing is spent or signed out meanwhile.
    @Test func theRevertLinkFromTheOutboxAsksTheSameQuestion() throws {
        let notice = OutboxMessage(
            id: 7, channel: "email", to: "old@mail.com", kind: "email_changed_notice", purpose: "email_change",
            code: nil, link: "https://321.fit/email/revert?token=\(token)", token: token, sentAt: start,
            status: .live)
        var state = SampleData.state([SettingsScreen()], now: start)
        state.overlay = .outbox(OutboxPanel(messages: [notice], isLoading: false))
        let harness = ReducerHarness(state, exhaustivity: .off)
        let asked = harness.send(.input(.key(.enter)))
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        #expect(harness.state.top.as(CheckingLinkScreen.self)?.token == Secret(token))
        let answered = harness.send(.reply(info(.emailRevert), to: requestID(asked)))
        #expect(requests(answered).isEmpty)

        let (handedOver, _) = open(token, answer: info(.emailRevert))
        let sheet = try #require(harness.state.overlay?.as(Sheet.self))
        #expect(sheet == handedOver.overlay?.as(Sheet.self))
        #expect(sheet.sheet.title == "Undo the email change?")
        #expect(sheet.sheet.selectedAction == 1)
        harness.send(.input(.key(.enter)))  // Cancel
        #expect(harness.state.overlay == nil)
        #expect(harness.state.stack == SampleData.state([SettingsScreen()], now: start).stack)
    }

    @Test func escOnTheSheetLeavesTheQuestionOnScreenAndEnterAsksAgain() throws {
        let (state, _) = open(token, answer: info(.emailRevert))
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.escape)))
        #expect(harness.state.overlay == nil)
        #expect(harness.state.top.as(CheckingLinkScreen.self)?.confirming == .emailRevert)
        harness.send(.input(.key(.enter)))
        #expect(harness.state.overlay?.as(Sheet.self) != nil)
    }

    @Test(arguments: [LinkState.used, .superseded, .expired])
    func aDeadLinkShowsLinkExpired(dead: LinkState) {
        let (state, effects) = open(token, answer: info(.emailRevert, dead))
        #expect(requests(effects).isEmpty)
        #expect(state.top == AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(RevertEmailLink()))))
        #expect(state.overlay == nil)
    }

    @Test func anUnknownTokenSaysSoAndOfflineCanRetry() {
        let harness = ReducerHarness(SampleData.state([SettingsScreen()], now: start), exhaustivity: .off)
        let asked = harness.send(.openLink(token))
        harness.send(
            .failure(
                .server(status: 404, code: "link_not_found", message: "This link is not valid."), to: requestID(asked)))
        #expect(harness.state.top.as(CheckingLinkScreen.self)?.error == "This link is not valid.")
        #expect(text(harness.state).contains("This link is not valid."))
        #expect(harness.send(.input(.key(.enter))).isEmpty)

        let offlineHarness = ReducerHarness(SampleData.state([SettingsScreen()], now: start), exhaustivity: .off)
        let first = offlineHarness.send(.openLink(token))
        offlineHarness.send(.failure(.offline(reason: "refused"), to: requestID(first)))
        #expect(offlineHarness.state.top.as(CheckingLinkScreen.self)?.canRetry == true)
        #expect(requests(offlineHarness.send(.input(.key(.enter)))) == [AnyRequest(Endpoint.InspectLink(token: token))])
    }

    /// A re-auth link opens only where "Verify it's you" waits for it.
    @Test func aReauthLinkWithNothingWaitingSaysSo() {
        let (state, effects) = open(token, answer: info(.reauth))
        #expect(requests(effects).isEmpty)
        #expect(state.top.as(CheckingLinkScreen.self)?.error == LinkRouter.nothingWaitingText)
    }

    /// Cold: `accessdeck open-link` with no app running hands the link over on a signed-out root.
    @Test func signedOutTheLinkIsAskedAboutToo() {
        let harness = ReducerHarness(SampleData.state([WelcomeScreen()], methods: nil, now: start), exhaustivity: .off)
        let asked = harness.send(.openLink("https://example.test/email/revert?token=\(token)"))
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        harness.send(.reply(info(.emailRevert), to: requestID(asked)))
        #expect(harness.state.overlay?.as(Sheet.self) != nil)
    }

    /// Signed out, "Undo the change" lands where the signed-in revert does (issue 28 item 6): on sign-in,
    /// saying why, not on a "Verifying your link…" spinner that never ends.
    @Test func signedOutTheRevertLandsOnSignInSayingWhy() {
        let harness = ReducerHarness(SampleData.state([WelcomeScreen()], methods: nil, now: start), exhaustivity: .off)
        let asked = harness.send(.openLink(token))
        harness.send(.reply(info(.emailRevert), to: requestID(asked)))
        harness.send(.input(.key(.up)))
        let opened = harness.send(.input(.key(.enter)))
        #expect(requests(opened) == [AnyRequest(Endpoint.RevertEmailChange(token: token))])
        harness.advance(by: VerifyingLinkScreen.minimumShown)
        harness.send(.reply(EmailReverted(email: "jdoe@mail.com", signedOutSessions: 1), to: requestID(opened)))
        harness.send(.tick)
        let notice = "Your email is jdoe@mail.com again. Every session was signed out. Sign in again."
        #expect(harness.state.stack == [AnyScreen(SignInScreen(notice: notice))])
        #expect(harness.state.overlay == nil)
        #expect(text(harness.state).contains("Every session was signed out"))
    }
}

/// Issue 27: an unverified recovery email is verified later from Settings: its reminder's link pasted there
/// (no field takes it) is asked about and opened, and the reminder goes; a stray word opens nothing.
@Suite struct PastedOnSettingsTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theRecoveryEmailsLinkPastedOnSettingsVerifiesIt() throws {
        var state = AppState(now: start)
        state.methods = SampleData.phoneOnly
        state.profile = SampleData.profile(.complete, username: "jdoe", email: "jdoe@mail.com", verified: false)
        #expect(render(state, size: .standard).text().contains("Verify your email"))
        let harness = ReducerHarness(state, exhaustivity: .off)
        #expect(harness.send(.input(.paste("hello"))).isEmpty)
        #expect(harness.state.top.is(ScreenType(SettingsScreen.self)))

        let asked = harness.send(.input(.paste("https://other.example/confirm/rg_0123456789abcdefghij\n")))
        let inspect = try #require(asked.first { if case .request = $0 { true } else { false } })
        guard case .request(let request, let id) = inspect else { return }
        #expect(request == AnyRequest(Endpoint.InspectLink(token: "rg_0123456789abcdefghij")))
        let live = LinkInfo(kind: .init(.register), state: .init(.live), expiresAt: start + 86_400)
        let opened = harness.send(.reply(live, to: id))
        guard
            case .request(let confirm, let confirmID)? = opened.first(where: {
                if case .request = $0 { true } else { false }
            })
        else {
            Issue.record("no confirm request")
            return
        }
        #expect(confirm == AnyRequest(Endpoint.ConfirmRegistration(token: "rg_0123456789abcdefghij")))
        harness.advance(by: VerifyingLinkScreen.minimumShown)
        harness.send(.reply(RegistrationConfirmed(email: "jdoe@mail.com"), to: confirmID))
        #expect(harness.state.top.is(ScreenType(SettingsScreen.self)))
        #expect(harness.state.profile?.emailVerified == true)
        #expect(!render(harness.state, size: .standard).text().contains("Verify your email"))
    }
}
