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
        var state = SampleData.state([SettingsScreen()], now: start)
        let asked = reduce(&state, .openLink(link))
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        #expect(state.top.as(CheckingLinkScreen.self) == CheckingLinkScreen(token: Secret(token)))
        #expect(!text(state).contains(token))
        let effects = reduce(&state, .reply(answer, to: requestID(asked)))
        return (state, effects)
    }

    @Test(arguments: [
        "https://example.test/email/revert?token=lk_AbCdEfGhIjKlMnOpQrStUv",
        "https://mail.example/l/lk_AbCdEfGhIjKlMnOpQrStUv",
        "lk_AbCdEfGhIjKlMnOpQrStUv",
        "  http://127.0.0.1:8080/anything/at/all?utm=1&token=lk_AbCdEfGhIjKlMnOpQrStUv \n",
    ])
    func anyURLShapeOrABareTokenIsAskedAbout(link: String) {
        var state = SampleData.state([SettingsScreen()], now: start)
        let asked = reduce(&state, .openLink(link))
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

        var cancelled = state
        _ = reduce(&cancelled, .input(.key(.enter)))
        #expect(cancelled.overlay == nil)
        #expect(cancelled.stack == SampleData.state([SettingsScreen()], now: start).stack)

        _ = reduce(&state, .input(.key(.up)))
        effects = reduce(&state, .input(.key(.enter)))
        #expect(requests(effects) == [AnyRequest(Endpoint.RevertEmailChange(token: token))])
        #expect(state.top.as(VerifyingLinkScreen.self)?.link == AnyLinkPurpose(RevertEmailLink()))
    }

    @Test func escOnTheSheetLeavesTheQuestionOnScreenAndEnterAsksAgain() throws {
        var (state, _) = open(token, answer: info(.emailRevert))
        _ = reduce(&state, .input(.key(.escape)))
        #expect(state.overlay == nil)
        #expect(state.top.as(CheckingLinkScreen.self)?.confirming == .emailRevert)
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.overlay?.as(Sheet.self) != nil)
    }

    @Test(arguments: [LinkState.used, .superseded, .expired])
    func aDeadLinkShowsLinkExpired(dead: LinkState) {
        let (state, effects) = open(token, answer: info(.emailRevert, dead))
        #expect(requests(effects).isEmpty)
        #expect(state.top == AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(RevertEmailLink()))))
        #expect(state.overlay == nil)
    }

    @Test func anUnknownTokenSaysSoAndOfflineCanRetry() {
        var state = SampleData.state([SettingsScreen()], now: start)
        let asked = reduce(&state, .openLink(token))
        _ = reduce(
            &state,
            .failure(
                .server(status: 404, code: "link_not_found", message: "This link is not valid."), to: requestID(asked)))
        #expect(state.top.as(CheckingLinkScreen.self)?.error == "This link is not valid.")
        #expect(text(state).contains("This link is not valid."))
        #expect(reduce(&state, .input(.key(.enter))).isEmpty)

        var offline = SampleData.state([SettingsScreen()], now: start)
        let first = reduce(&offline, .openLink(token))
        _ = reduce(&offline, .failure(.offline(reason: "refused"), to: requestID(first)))
        #expect(offline.top.as(CheckingLinkScreen.self)?.canRetry == true)
        #expect(requests(reduce(&offline, .input(.key(.enter)))) == [AnyRequest(Endpoint.InspectLink(token: token))])
    }

    /// A re-auth link opens only where "Verify it's you" waits for it.
    @Test func aReauthLinkWithNothingWaitingSaysSo() {
        let (state, effects) = open(token, answer: info(.reauth))
        #expect(requests(effects).isEmpty)
        #expect(state.top.as(CheckingLinkScreen.self)?.error == LinkRouter.nothingWaitingText)
    }

    /// Cold: `accessdeck open-link` with no app running hands the link over on a signed-out root.
    @Test func signedOutTheLinkIsAskedAboutToo() {
        var state = SampleData.state([WelcomeScreen()], methods: nil, now: start)
        let asked = reduce(&state, .openLink("https://example.test/email/revert?token=\(token)"))
        #expect(requests(asked) == [AnyRequest(Endpoint.InspectLink(token: token))])
        _ = reduce(&state, .reply(info(.emailRevert), to: requestID(asked)))
        #expect(state.overlay?.as(Sheet.self) != nil)
    }

    /// Signed out, "Undo the change" lands where the signed-in revert does (issue 28 item 6): on sign-in,
    /// saying why, not on a "Verifying your link…" spinner that never ends.
    @Test func signedOutTheRevertLandsOnSignInSayingWhy() {
        var state = SampleData.state([WelcomeScreen()], methods: nil, now: start)
        let asked = reduce(&state, .openLink(token))
        _ = reduce(&state, .reply(info(.emailRevert), to: requestID(asked)))
        _ = reduce(&state, .input(.key(.up)))
        let opened = reduce(&state, .input(.key(.enter)))
        #expect(requests(opened) == [AnyRequest(Endpoint.RevertEmailChange(token: token))])
        state.now = start + VerifyingLinkScreen.minimumShown
        _ = reduce(&state, .reply(EmailReverted(email: "jdoe@mail.com", signedOutSessions: 1), to: requestID(opened)))
        _ = reduce(&state, .tick)
        let notice = "Your email is jdoe@mail.com again. Every session was signed out. Sign in again."
        #expect(state.stack == [AnyScreen(SignInScreen(notice: notice))])
        #expect(state.overlay == nil)
        #expect(text(state).contains("Every session was signed out"))
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
        #expect(reduce(&state, .input(.paste("hello"))).isEmpty)
        #expect(state.top.is(ScreenType(SettingsScreen.self)))

        let asked = reduce(&state, .input(.paste("https://other.example/confirm/rg_0123456789abcdefghij\n")))
        let inspect = try #require(asked.first { if case .request = $0 { true } else { false } })
        guard case .request(let request, let id) = inspect else { return }
        #expect(request == AnyRequest(Endpoint.InspectLink(token: "rg_0123456789abcdefghij")))
        let live = LinkInfo(kind: .init(.register), state: .init(.live), expiresAt: start + 86_400)
        let opened = reduce(&state, .reply(live, to: id))
        guard
            case .request(let confirm, let confirmID)? = opened.first(where: {
                if case .request = $0 { true } else { false }
            })
        else {
            Issue.record("no confirm request")
            return
        }
        #expect(confirm == AnyRequest(Endpoint.ConfirmRegistration(token: "rg_0123456789abcdefghij")))
        state.now = start + VerifyingLinkScreen.minimumShown
        _ = reduce(&state, .reply(RegistrationConfirmed(email: "jdoe@mail.com"), to: confirmID))
        #expect(state.top.is(ScreenType(SettingsScreen.self)))
        #expect(state.profile?.emailVerified == true)
        #expect(!render(state, size: .standard).text().contains("Verify your email"))
    }
}
