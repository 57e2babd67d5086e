import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 27: "Request a new link" on an expired email change calls the contract's resend; where the backend
/// no longer counts the change as pending (404), the screen offers to start it again, the address filled in.
@Suite struct EmailChangeRestartTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let gone = APIError.server(
        status: 404, code: "link_not_found", message: "There is no email change waiting. Start again.")

    func expired(_ link: EmailChangeLink, reauth: Bool) -> AppState {
        let screens: [any ScreenModel] = [EmailPasswordScreen(), LinkExpiredScreen(link: AnyLinkPurpose(link))]
        var state = SampleData.state(screens, now: start)
        if reauth { state.reauth = ReauthGrant(reauthToken: "ra_1", expiresAt: start + 900, method: .init(.password)) }
        return state
    }

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    @Test func requestANewLinkCallsResendAndA404OffersToStartAgainWithTheAddress() {
        let link = EmailChangeLink(address: "new.address@gmail.com")
        let harness = ReducerHarness(expired(link, reauth: true))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ResendEmailLink(), id: 1)]) {
            $0.top = AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(link), isSending: true))
            $0.topAwaits(1, Endpoint.ResendEmailLink.self)
        }
        harness.send(.failure(gone, to: RequestID(1))) {
            $0.top = AnyScreen(LinkExpiredScreen(link: AnyLinkPurpose(link), error: gone.message, startsAgain: true))
        }
        #expect(text(harness.state).contains("Start the change again"))
        #expect(!text(harness.state).contains("Request a new link"))
        #expect(text(harness.state).contains("There is no email change waiting. Start again."))
        // Verified a moment ago: straight to the new address, filled in, over the sub-hub, and checked as if
        // just typed (the walk found Send link waiting for a keystroke).
        let debounce = Effect.after(seconds: NewEmailScreen.debounce, action: .tick, id: .debounce)
        harness.send(.input(.key(.enter)), effects: [debounce]) {
            $0.stack.removeLast()
            $0.stack.append(
                AnyScreen(
                    NewEmailScreen(
                        mode: .change(current: "jdoe@mail.com"), email: "new.address@gmail.com",
                        availability: .typing(since: self.start))))
        }
        harness.advance(by: NewEmailScreen.debounce)
        harness.receive(.tick, effects: [.request(Endpoint.EmailAvailable(email: "new.address@gmail.com"), id: 2)]) {
            $0.stack.removeLast()
            $0.stack.append(
                AnyScreen(
                    NewEmailScreen(
                        mode: .change(current: "jdoe@mail.com"), email: "new.address@gmail.com",
                        availability: .checking("new.address@gmail.com"))))
            $0.topAwaits(2, Endpoint.EmailAvailable.self)
        }
    }

    /// "Check your email" left open past the change's day: its "Resend link" gets the same 404, and offers the
    /// same way on (the walk of issue 27 found it still offering a resend that could not come).
    @Test func checkYourEmailsResendA404OffersToStartAgain() {
        let link = AnyLinkPurpose(EmailChangeLink(address: "new.address@gmail.com"))
        let waiting = CheckEmailScreen(
            link: link, sentTo: "new.address@gmail.com", sentAt: start - 2 * 86_400, canResend: true)
        var state = SampleData.state([EmailPasswordScreen(), waiting], now: start)
        state.reauth = ReauthGrant(reauthToken: "ra_1", expiresAt: start + 900, method: .init(.password))
        #expect(reduce(&state, .input(.key(.enter))) == [.request(Endpoint.ResendEmailLink(), id: 1)])
        _ = reduce(&state, .failure(gone, to: RequestID(1)))
        #expect(state.top.as(CheckEmailScreen.self)?.startsAgain == true)
        #expect(text(state).contains("Start the change again"))
        #expect(!text(state).contains("Resend link"))
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.top.as(NewEmailScreen.self)?.email.value == "new.address@gmail.com")
    }

    /// The re-auth window has closed: "Verify it's you" first, then the same filled-in screen.
    @Test func withoutAnOpenWindowItVerifiesFirst() {
        var state = expired(EmailChangeLink(address: "new.address@gmail.com"), reauth: false)
        _ = reduce(&state, .input(.key(.enter)))
        _ = reduce(&state, .failure(gone, to: RequestID(1)))
        _ = reduce(&state, .input(.key(.enter)))
        #expect(
            state.top.as(ReauthPickerScreen.self)?.flow
                == AnyFlow(RestartEmailChange(address: "new.address@gmail.com")))
    }

    /// Any other refusal (a wait, no connection) keeps "Request a new link": the change may still be pending.
    @Test func otherFailuresKeepRequestANewLink() {
        var state = expired(EmailChangeLink(), reauth: true)
        _ = reduce(&state, .input(.key(.enter)))
        _ = reduce(&state, .failure(.rateLimited(retryAfter: nil, message: "Slow down."), to: RequestID(1)))
        #expect(state.top.as(LinkExpiredScreen.self)?.startsAgain == false)
        #expect(text(state).contains("Request a new link"))
        // An address not known (a link handed over, not opened from its message): the field starts empty.
        _ = reduce(&state, .input(.key(.enter)))
        _ = reduce(&state, .failure(gone, to: RequestID(2)))
        _ = reduce(&state, .input(.key(.enter)))
        #expect(state.top.as(NewEmailScreen.self) == NewEmailScreen(mode: .change(current: "jdoe@mail.com")))
    }
}
