import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// The hub's Apple and Google rows through `reduce`: the disconnect sheet, "Verify it's you"
/// without the provider, the request with the re-auth token, the hard block (the client's rule
/// and the server's 409), and connecting through the simulated consent screen.
@Suite struct ProvidersFlowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)
    let toastTimer = Effect.after(seconds: Toast.defaultDuration, action: .toastExpired, id: .toast)
    let disconnectGoogle = DisconnectFlow(provider: .google)

    /// Hub rows on iOS: phone, email, Apple (2), Google (3).
    func onHub(
        selection: Int, methods: AuthMethods = SampleData.everyMethod, options: AppOptions = .init()
    )
        -> AppState
    {
        var state = SampleData.state([], methods: methods, now: start, options: options)
        state.top = AnyScreen(HubScreen(selection: selection))
        return state
    }

    func grant(_ method: ReauthMethod = .password) -> ReauthGrant {
        ReauthGrant(reauthToken: "ra_fixture", expiresAt: start + 15 * 60, method: .init(method))
    }

    func with(_ methods: AuthMethods, apple: Bool? = nil, google: Bool? = nil) -> AuthMethods {
        var methods = methods
        if let apple { methods.appleLinked = apple }
        if let google { methods.googleLinked = google }
        return methods
    }

    /// The disconnect screen over the hub, its request in flight.
    func disconnecting(_ provider: SocialProvider, methods: AuthMethods = SampleData.everyMethod) -> AppState {
        var state = SampleData.state([DisconnectingScreen(provider: provider)], methods: methods, now: start)
        state.reauth = grant()
        return state.topWaiting(Endpoint.DisconnectProvider.self, DisconnectingScreen.Reply.disconnect)
    }

    // MARK: - Disconnect

    @Test func disconnectGoogleAsksVerifiesWithoutGoogleAndSendsTheToken() throws {
        let harness = ReducerHarness(onHub(selection: 3))
        let verify = Command.push(ReauthPickerScreen(flow: AnyFlow(disconnectGoogle)))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.disconnect(.google, then: [verify])) }
        guard let sheet = harness.state.overlay?.as(Sheet.self) else { throw CancelTest() }
        #expect(sheet.sheet.title == "Disconnect Google?")
        #expect(
            sheet.sheet.body
                == "You'll no longer be able to sign in with Google. You can reconnect it later at any time.")
        #expect(sheet.sheet.actions == [.init("Disconnect", isDestructive: true), .init("Cancel")])
        #expect(sheet.sheet.selected == .init("Cancel"))

        harness.send(.input(.key(.up))) { $0.overlay = .sheet(sheet.onDestructive) }
        harness.send(.input(.key(.enter))) {
            $0.overlay = nil
            $0.stack.append(AnyScreen(ReauthPickerScreen(flow: AnyFlow(self.disconnectGoogle))))
        }
        let picker = try #require(harness.state.top.as(ReauthPickerScreen.self))
        #expect(
            picker.options(harness.state.context) == [
                .method(.password), .method(.email), .method(.apple), .method(.phone), .support,
            ])
        #expect(render(harness.state, size: .standard).text().contains("To disconnect Google, confirm"))

        harness.send(.input(.key(.enter))) {
            $0.stack.append(AnyScreen(PasswordReauthScreen(flow: AnyFlow(self.disconnectGoogle))))
        }
        var typed = ""
        for character in "s3cret!!" {
            typed.append(character)
            let value = typed
            harness.send(.input(.key(.character(character)))) {
                $0.top = AnyScreen(PasswordReauthScreen(flow: AnyFlow(self.disconnectGoogle), password: value))
            }
        }
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthPassword(password: "s3cret!!"), id: 1)]) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: AnyFlow(self.disconnectGoogle), isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthPassword.self)
        }
        let grant = grant()
        harness.send(
            .reply(grant, to: RequestID(1)),
            effects: [.request(Endpoint.DisconnectProvider(provider: .google, reauthToken: "ra_fixture"), id: 2), tick]
        ) {
            $0.reauth = grant
            $0.stack = [
                $0.stack[0], AnyScreen(HubScreen(selection: 3)), AnyScreen(DisconnectingScreen(provider: .google)),
            ]
            $0.topAwaits(2, Endpoint.DisconnectProvider.self)
            $0.clockTicking = true
        }
        #expect(render(harness.state, size: .standard).text().contains("Disconnecting Google…"))

        let after = with(SampleData.everyMethod, google: false)
        harness.send(.reply(after, to: RequestID(2)), effects: [toastTimer]) {
            $0.methods = after
            $0.stack.removeLast()
            $0.toast = Toast("Google disconnected.", shownAt: self.start)
        }
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }

        // The Google row is "Not connected" with its Connect pill; every other row is as it was.
        let before = HubScreen.rows(SampleData.everyMethod, platform: .ios)
        let now = HubScreen.rows(try #require(harness.state.methods), platform: .ios)
        #expect(now[3].detail == "Not connected")
        #expect(now[3].control == .pill("Connect"))
        #expect(now.enumerated().filter { $0.offset != 3 }.map(\.element) == before.filter { $0.kind != .google })
        #expect(harness.state.defects.isEmpty)
    }

    @Test func insideTheWindowTheSheetGoesStraightToDisconnecting() {
        var state = onHub(selection: 2)
        state.reauth = grant(.google)
        let harness = ReducerHarness(state)
        let apple = DisconnectFlow(provider: .apple)
        let sheet = Sheet.disconnect(.apple, then: [.continueFlow(apple)])
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(sheet) }
        harness.send(.input(.key(.up))) { $0.overlay = .sheet(sheet.onDestructive) }
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.DisconnectProvider(provider: .apple, reauthToken: "ra_fixture"), id: 1), tick]
        ) {
            $0.overlay = nil
            $0.stack.append(AnyScreen(DisconnectingScreen(provider: .apple)))
            $0.topAwaits(1, Endpoint.DisconnectProvider.self)
            $0.clockTicking = true
        }
        let after = with(SampleData.everyMethod, apple: false)
        harness.send(.reply(after, to: RequestID(1)), effects: [toastTimer]) {
            $0.methods = after
            $0.stack.removeLast()
            $0.toast = Toast("Apple disconnected.", shownAt: self.start)
        }
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    @Test func cancelOnTheSheetChangesNothing() {
        let harness = ReducerHarness(onHub(selection: 3))
        let verify = Command.push(ReauthPickerScreen(flow: AnyFlow(disconnectGoogle)))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.disconnect(.google, then: [verify])) }
        harness.send(.input(.key(.down))) {
            var sheet = Sheet.disconnect(.google, then: [verify])
            sheet.sheet.move(by: 1)
            $0.overlay = .sheet(sheet)
        }
        harness.send(.input(.key(.enter))) { $0.overlay = nil }
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.disconnect(.google, then: [verify])) }
        harness.send(.input(.key(.escape))) { $0.overlay = nil }
    }

    @Test(arguments: [(SocialProvider.apple, 2), (SocialProvider.google, 3)])
    func theOnlyMethodOpensTheHardBlockWithNoWayOn(provider: SocialProvider, row: Int) {
        let only = provider == .apple ? SampleData.appleOnly : ProvidersGallery.googleOnly
        let harness = ReducerHarness(onHub(selection: row, methods: only))
        harness.send(.input(.key(.enter))) { $0.overlay = .sheet(.cantDisconnect(provider)) }
        let name = provider == .apple ? "Apple" : "Google"
        let sheet = Sheet.cantDisconnect(provider)
        #expect(sheet.sheet.title == "Can't disconnect \(name)")
        #expect(
            sheet.sheet.body
                == "This is your only sign-in method. Add a phone number, email, or another provider first — then you can disconnect \(name)."
        )
        #expect(sheet.sheet.actions.count == 1)
        #expect(sheet.actions == [[]])
        harness.send(.input(.key(.enter))) { $0.overlay = nil }
    }

    @Test func theServersLastMethodRefusalShowsTheHardBlockOnFreshMethods() {
        let harness = ReducerHarness(disconnecting(.google))
        let refusal = APIError.server(
            status: 409, code: "last_method", message: "This is your only sign-in method.")
        harness.send(.failure(refusal), effects: [.request(LoadAuthMethods(), id: 1), tick]) {
            $0.answered()
            $0.topAwaits(1, LoadAuthMethods.self)
            $0.clockTicking = true
        }
        harness.send(.reply(ProvidersGallery.googleOnly, to: RequestID(1))) {
            $0.methods = ProvidersGallery.googleOnly
            $0.stack.removeLast()
            $0.overlay = .sheet(.cantDisconnect(.google))
        }
        harness.advance(by: 1)
        harness.receive(.tick) { $0.clockTicking = false }
    }

    @Test func anExpiredVerificationAsksAgain() {
        let harness = ReducerHarness(disconnecting(.google))
        harness.send(.failure(.reauthRequired(message: "Verify it's you first."))) {
            $0.reauth = nil  // refused, so forgotten (AppWideFailure.grantRefused)
            $0.stack = [
                $0.stack[0], $0.stack[1],
                AnyScreen(
                    ReauthPickerScreen(
                        flow: AnyFlow(self.disconnectGoogle), error: DisconnectingScreen.expiredText)),
            ]
        }
    }

    @Test func offlineKeepsTheProviderAndEnterTriesAgain() {
        let harness = ReducerHarness(disconnecting(.google))
        let offline = APIError.offline(reason: "refused")
        harness.send(.failure(offline), effects: [.firstProbe]) {
            $0.answered()
            $0.top = AnyScreen(DisconnectingScreen(provider: .google, error: offline.message))
            $0.wentOffline()
        }
        #expect(harness.state.methods == SampleData.everyMethod)
        let text = render(harness.state, size: .standard).text()
        #expect(text.contains("Google is still connected. Nothing was changed."))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.DisconnectProvider(provider: .google, reauthToken: "ra_fixture"), id: 1), tick]
        ) {
            $0.top = AnyScreen(DisconnectingScreen(provider: .google))
            $0.topAwaits(1, Endpoint.DisconnectProvider.self)
            $0.clockTicking = true
        }
        // A 5xx is not the backend back (issue 48 item 2): the banner stays, the probe asks on.
        let server = APIError.server(status: 500, code: "internal", message: OnScreenMessage.serverError.text)
        harness.send(.failure(server, to: RequestID(1))) {
            $0.answered(RequestID(1))
            $0.top = AnyScreen(DisconnectingScreen(provider: .google, error: server.message))
        }
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.advance(by: 1)
        harness.receive(.probe, effects: [.request(ProbeBackend(signedIn: true), id: 2)]) { $0.probing(2) }
        harness.receive(.tick) { $0.clockTicking = false }
        #expect(harness.state.methods == SampleData.everyMethod)
    }

    // MARK: - Connect

    @Test func connectListsTheAccountsAndLinksTheChosenOne() throws {
        let harness = ReducerHarness(onHub(selection: 2, methods: SampleData.noPhone))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.AdminProviderAccounts(provider: .apple), id: 1)])
        {
            $0.stack.append(AnyScreen(ProviderConsentScreen(provider: .apple, phase: .loading)))
            $0.topAwaits(1, Endpoint.AdminProviderAccounts.self)
        }
        let accounts = ProvidersGallery.accounts(.apple)
        harness.send(.reply(accounts, to: RequestID(1))) {
            $0.answered(RequestID(1))
            $0.top = AnyScreen(ProviderConsentScreen(provider: .apple, phase: .choosing, accounts: accounts))
        }
        let text = render(harness.state, size: .standard).text()
        #expect(text.contains("Sign in with Apple"))
        #expect(text.contains("coach.jane@icloud.com"))
        // Issue 28 item 22: the simulated Apple vouches for the account and shares nothing, so the
        // screen no longer promises "your name and email address", which nothing ever prefilled.
        #expect(!text.contains("will share your name and email"))
        #expect(text.contains("Apple confirms it's you to"))
        harness.send(.input(.key(.down))) {
            $0.top = AnyScreen(
                ProviderConsentScreen(provider: .apple, phase: .choosing, accounts: accounts, selection: 1))
        }
        harness.send(
            .input(.key(.enter)),
            effects: [.request(ConnectProviderAccount(provider: .apple, subject: "apple_coach"), id: 2)]
        ) {
            $0.top = AnyScreen(
                ProviderConsentScreen(provider: .apple, phase: .connecting, accounts: accounts, selection: 1))
            $0.topAwaits(2, ConnectProviderAccount.self)
        }
        let after = with(SampleData.noPhone, apple: true)
        harness.send(.reply(after, to: RequestID(2)), effects: [toastTimer]) {
            $0.methods = after
            $0.stack.removeLast()
            $0.toast = Toast("Apple connected.", shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
        let rows = HubScreen.rows(try #require(harness.state.methods), platform: .ios)
        #expect(rows[2].detail == "Connected")
    }

    func choosing(_ provider: SocialProvider = .google, selection: Int = 0) -> ProviderConsentScreen {
        ProviderConsentScreen(
            provider: provider, phase: .choosing, accounts: ProvidersGallery.accounts(provider), selection: selection)
    }

    func onConsent(_ screen: ProviderConsentScreen, options: AppOptions = .init()) -> AppState {
        var state = SampleData.state([screen], methods: SampleData.phoneOnly, now: start, options: options)
        state.stack[1] = AnyScreen(HubScreen(selection: 3))
        return state
    }

    @Test func anAccountLinkedElsewhereIsRefusedWithoutSayingWhose() {
        var connecting = choosing()
        connecting.phase = .connecting
        let harness = ReducerHarness(
            onConsent(connecting).topWaiting(ConnectProviderAccount.self, ProviderConsentScreen.Reply.connect))
        let refusal = APIError.server(
            status: 409, code: "provider_taken", message: "This Google account is linked to another user.")
        harness.send(.failure(refusal)) {
            $0.answered()
            var screen = self.choosing()
            screen.error = "This Google account is already linked to another 321Fit account. Choose another account."
            $0.top = AnyScreen(screen)
        }
        #expect(harness.state.methods == SampleData.phoneOnly)
        let text = render(harness.state, size: .standard).text()
        #expect(text.contains("already linked to another 321Fit account"))
        #expect(!text.contains("usr_"))
    }

    @Test func alreadyLinkedRefreshesTheHub() {
        var connecting = choosing()
        connecting.phase = .connecting
        let harness = ReducerHarness(
            onConsent(connecting).topWaiting(ConnectProviderAccount.self, ProviderConsentScreen.Reply.connect))
        let refusal = APIError.server(
            status: 422, code: "already_linked", message: "Google is already connected to this account.")
        harness.send(.failure(refusal), effects: [.request(LoadAuthMethods(), id: 1)]) {
            $0.answered()
            connecting.error = refusal.message
            $0.top = AnyScreen(connecting)
            $0.topAwaits(1, LoadAuthMethods.self)
        }
        let linked = with(SampleData.phoneOnly, google: true)
        harness.send(.reply(linked, to: RequestID(1)), effects: [toastTimer]) {
            $0.methods = linked
            $0.stack.removeLast()
            $0.toast = Toast("Google is already connected.", shownAt: self.start)
        }
        harness.advance(by: Toast.defaultDuration)
        harness.receive(.toastExpired) { $0.toast = nil }
    }

    @Test func cancelLeavesWithNothingChangedAndDropsALateReply() {
        var connecting = choosing()
        connecting.phase = .connecting
        let before = onConsent(connecting).topWaiting(ConnectProviderAccount.self, ProviderConsentScreen.Reply.connect)
        let harness = ReducerHarness(before)
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.send(.reply(with(SampleData.phoneOnly, google: true)))
        #expect(harness.state.methods == SampleData.phoneOnly)
        #expect(harness.state.toast == nil)
    }

    @Test func simulateAnErrorShowsTheProvidersFailureAndEnterRetries() {
        let harness = ReducerHarness(onConsent(choosing(selection: 2)))
        harness.send(.input(.key(.down)))  // already on the last row
        harness.send(.input(.key(.enter))) {
            var failed = self.choosing(selection: 2)
            failed.phase = .providerError
            $0.top = AnyScreen(failed)
        }
        #expect(render(harness.state, size: .standard).text().contains("Google couldn't sign you in."))
        harness.send(.input(.key(.enter))) { $0.top = AnyScreen(self.choosing(selection: 2)) }
    }

    @Test func aFailedAccountListOffersTryAgain() {
        let loading = ProviderConsentScreen(provider: .google, phase: .loading)
        let harness = ReducerHarness(
            onConsent(loading).topWaiting(Endpoint.AdminProviderAccounts.self, ProviderConsentScreen.Reply.accounts))
        let offline = APIError.offline(reason: "refused")
        harness.send(.failure(offline), effects: [.firstProbe]) {
            $0.answered()
            $0.top = AnyScreen(ProviderConsentScreen(provider: .google, phase: .loadFailed(offline.message)))
            $0.wentOffline()
        }
        harness.send(
            .input(.key(.enter)), effects: [.request(Endpoint.AdminProviderAccounts(provider: .google), id: 1)]
        ) {
            $0.top = AnyScreen(loading)
            $0.topAwaits(1, Endpoint.AdminProviderAccounts.self)
        }
        harness.expectRunning(.firstProbe)
    }

    /// Another backend has no simulated provider: Connect takes a pasted ID token instead (issue 27), and
    /// nothing is asked of /_admin; Enter with nothing pasted sends nothing.
    @Test func anotherBackendNeverCallsTheAdminAPI() throws {
        let options = AppOptions(hasReferenceBackend: false)
        let harness = ReducerHarness(onHub(selection: 3, methods: SampleData.phoneOnly, options: options))
        harness.send(.input(.key(.enter))) {
            $0.stack.append(AnyScreen(ProviderTokenScreen(provider: .google, purpose: .connect)))
        }
        let text = render(harness.state, size: .standard).text()
        #expect(text.contains("This backend has no stand-in for Google"))
        harness.send(.input(.key(.enter))) {
            $0.top = AnyScreen(
                ProviderTokenScreen(provider: .google, purpose: .connect, error: "Paste the Google ID token first."))
        }
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
    }
}

private struct CancelTest: Error {}
