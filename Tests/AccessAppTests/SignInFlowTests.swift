import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// "Continue with email" through `reduce`: what is checked before a call, the call, and its answers.
@Suite struct SignInFlowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)

    func onEmail(_ typed: String) -> AppState {
        var state = AppState(root: SignInScreen(selection: 1), now: start)
        state.stack.append(AnyScreen(SignInEmailScreen(email: typed)))
        return state
    }

    @Test func continueWithEmailOpensTheAddressScreen() {
        let harness = ReducerHarness(AppState(root: SignInScreen(), now: start))
        harness.send(.input(.key(.down))) { $0.top = AnyScreen(SignInScreen(selection: 1)) }
        harness.send(.input(.key(.enter))) { $0.stack.append(AnyScreen(SignInEmailScreen())) }
    }

    /// A malformed address is said under the field and nothing is sent; typing clears it, Esc goes back.
    @Test func anInvalidAddressIsSaidBeforeAnyCall() {
        let harness = ReducerHarness(onEmail("jdoe@mail"))
        harness.send(.input(.key(.enter))) {
            $0.top = AnyScreen(SignInEmailScreen(email: "jdoe@mail", error: SignInEmailScreen.invalidText))
        }
        harness.send(.input(.key(.character(".")))) { $0.top = AnyScreen(SignInEmailScreen(email: "jdoe@mail.")) }
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
    }

    /// Enter asks for a code for the typed address; the server's wait turns the button off until it ends.
    @Test func enterSendsTheCodeAndARateLimitWaitsItsTime() {
        let harness = ReducerHarness(onEmail("jdoe@mail.com"))
        let request = Endpoint.StartSignInCode(channel: .email, email: "jdoe@mail.com")
        harness.send(.input(.key(.enter)), effects: [.request(request, id: 1)]) {
            $0.top = AnyScreen(SignInEmailScreen(email: "jdoe@mail.com", isWorking: true))
            $0.topAwaits(1, Endpoint.StartSignInCode.self)
        }
        // Working: Enter again sends nothing.
        harness.send(.input(.key(.enter)))
        let limit = RateLimit(target: "jdoe@mail.com", until: start + 30)
        harness.send(.failure(.rateLimited(retryAfter: 30, message: "wait"), to: RequestID(1)), effects: [tick]) {
            $0.top = AnyScreen(SignInEmailScreen(email: "jdoe@mail.com", limit: limit))
            $0.clockTicking = true
        }
        harness.send(.input(.key(.enter)))
        harness.advance(by: 30)
        harness.receive(.tick) {
            $0.top = AnyScreen(SignInEmailScreen(email: "jdoe@mail.com"))
            $0.clockTicking = false
        }
    }

    @Test func theChallengeOpensTheCodeScreen() {
        var screen = SignInEmailScreen(email: "jdoe@mail.com", isWorking: true)
        let challenge = SignInChallenge(
            challengeId: "sic_1", channel: .init(.email), destination: "jdoe@mail.com", expiresAt: start + 300,
            resendAfter: start + 30)
        let commands = screen.receive(.code(.success(challenge)), AppState(root: screen, now: start).context)
        #expect(commands == [.push(EnterCodeScreen(signIn: challenge, channel: .email))])
        #expect(!screen.isWorking)
    }
}
