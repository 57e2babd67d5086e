import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 27: Apple and Google against a backend that is not the reference one. There is no simulated
/// provider, so the provider's ID token (minted by the QA team's own tooling) is pasted and sent to the
/// contract's call: sign in, connect, and "Verify it's you", which an account with only Apple and Google
/// needs to disconnect one or to delete, and which used to end on "can't run in a terminal".
@Suite struct ProviderTokenTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhcHBsZS0xIn0.c2lnbmF0dXJl"
    let another = AppOptions(hasReferenceBackend: false)

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

    /// Pastes the token into the screen on top and presses Enter; the effects of Enter.
    func pasteAndSend(_ state: inout AppState) -> [Effect] {
        _ = reduce(&state, .input(.paste(token)))
        #expect(!text(state).contains(token))
        return reduce(&state, .input(.key(.enter)))
    }

    @Test func deletingWithOnlyAppleAndGoogleVerifiesWithAPastedToken() {
        var state = SampleData.state(
            [DeleteAccountScreen(), ReauthPickerScreen(flow: AnyFlow(DeleteAccountFlow()))],
            methods: SampleData.appleAndGoogle, now: start, options: another)
        #expect(text(state).contains("Paste an ID token"))
        // The first row is Apple (iOS); Enter opens the paste, not a dead end.
        _ = reduce(&state, .input(.key(.enter)))
        #expect(
            state.top.as(ProviderTokenScreen.self)
                == ProviderTokenScreen(provider: .apple, purpose: .reauth(AnyFlow(DeleteAccountFlow()))))
        #expect(!text(state).contains("can't run in a terminal against this backend"))
        let sent = pasteAndSend(&state)
        #expect(requests(sent) == [AnyRequest(Endpoint.ReauthSocial(provider: .apple, idToken: token))])
        // Sent: the field is empty and waits for the answer.
        #expect(state.top.as(ProviderTokenScreen.self)?.field.value == "")
        #expect(state.top.as(ProviderTokenScreen.self)?.isWorking == true)
        let grant = ReauthGrant(reauthToken: "ra_fixture", expiresAt: start + 900, method: .init(.apple))
        _ = reduce(&state, .reply(grant, to: requestID(sent)))
        #expect(state.reauth == grant)
        #expect(state.top.is(ScreenType(DeletingAccountScreen.self)) || state.overlay != nil)
        #expect(!state.stack.contains { $0.is(ScreenType(ProviderTokenScreen.self)) })
    }

    @Test func disconnectingOneOfTwoProvidersVerifiesWithTheOther() {
        var state = SampleData.state(
            [ReauthPickerScreen(flow: AnyFlow(DisconnectFlow(provider: .apple)))], methods: SampleData.appleAndGoogle,
            now: start, options: another)
        _ = reduce(&state, .input(.key(.enter)))
        #expect(
            state.top.as(ProviderTokenScreen.self)
                == ProviderTokenScreen(provider: .google, purpose: .reauth(AnyFlow(DisconnectFlow(provider: .apple)))))
        let sent = pasteAndSend(&state)
        #expect(requests(sent) == [AnyRequest(Endpoint.ReauthSocial(provider: .google, idToken: token))])
        let grant = ReauthGrant(reauthToken: "ra_fixture", expiresAt: start + 900, method: .init(.google))
        let effects = reduce(&state, .reply(grant, to: requestID(sent)))
        #expect(state.top.as(DisconnectingScreen.self)?.provider == .apple)
        #expect(
            requests(effects) == [AnyRequest(Endpoint.DisconnectProvider(provider: .apple, reauthToken: "ra_fixture"))])
    }

    @Test func aRefusedTokenIsSaidInTheServersWordsAndAnotherCanBePasted() {
        var state = SampleData.state(
            [ReauthPickerScreen(flow: AnyFlow(DeleteAccountFlow()))], methods: SampleData.appleAndGoogle, now: start,
            options: another)
        _ = reduce(&state, .input(.key(.enter)))
        let sent = pasteAndSend(&state)
        _ = reduce(
            &state,
            .response(
                requestID(sent),
                .failure(
                    .server(
                        status: 401, code: "provider_token_invalid", message: "The Apple sign-in could not be verified."
                    ))
            ))
        let screen = state.top.as(ProviderTokenScreen.self)
        #expect(screen?.field.error == "The Apple sign-in could not be verified.")
        #expect(screen?.isWorking == false && screen?.field.value == "")
        #expect(requests(pasteAndSend(&state)).count == 1)
    }

    @Test func enterWithNothingPastedSaysWhatIsMissingAndSendsNothing() {
        var state = AppState(root: SignInScreen(), now: start, options: another)
        state.stack.append(AnyScreen(ProviderTokenScreen(provider: .apple, purpose: .signIn)))
        #expect(requests(reduce(&state, .input(.key(.enter)))).isEmpty)
        #expect(state.top.as(ProviderTokenScreen.self)?.field.error == "Paste the Apple ID token first.")
    }

    @Test func continueWithGoogleOnTheSignInScreenTakesAPastedToken() {
        var state = AppState(root: SignInScreen(), now: start, options: another)
        state.stack[0] = AnyScreen(SignInScreen.selecting(.google, state.context))
        #expect(text(state).contains("Paste an ID token"))
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.top.as(ProviderTokenScreen.self) == ProviderTokenScreen(provider: .google, purpose: .signIn))
        let sent = pasteAndSend(&state)
        #expect(requests(sent) == [AnyRequest(SignInWithProviderToken(provider: .google, idToken: Secret(token)))])
    }

    @Test func connectFromTheHubTakesAPastedTokenAndSaysConnected() {
        var state = SampleData.state([], methods: SampleData.phoneOnly, now: start, options: another)
        let rows = HubScreen.rows(SampleData.phoneOnly, platform: another.platform)
        let google = rows.firstIndex { $0.kind == .google } ?? 0
        state.top = AnyScreen(HubScreen(selection: google))
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.top.as(ProviderTokenScreen.self) == ProviderTokenScreen(provider: .google, purpose: .connect))
        let sent = pasteAndSend(&state)
        #expect(requests(sent) == [AnyRequest(Endpoint.ConnectProvider(provider: .google, idToken: token))])
        var linked = SampleData.phoneOnly
        linked.googleLinked = true
        _ = reduce(&state, .reply(linked, to: requestID(sent)))
        #expect(state.top.is(ScreenType(HubScreen.self)))
        #expect(state.methods == linked)
        #expect(state.toast?.message == ProviderConsentScreen.connectedText(.google))
    }

    @Test func aTokenForAnAccountLinkedElsewhereSaysSoWithoutWhose() {
        var state = SampleData.state(
            [ProviderTokenScreen(provider: .google, purpose: .connect)], methods: SampleData.phoneOnly, now: start,
            options: another)
        let sent = pasteAndSend(&state)
        _ = reduce(
            &state,
            .response(requestID(sent), .failure(.server(status: 409, code: "provider_taken", message: "Taken."))))
        #expect(
            state.top.as(ProviderTokenScreen.self)?.field.error
                == ProviderConsentScreen.takenText(.google, brand: another.brand))
    }
}
