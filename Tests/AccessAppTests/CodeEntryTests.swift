import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Every six-box screen locks alike (issue 47): a code refused with a wait (a 429, or the wrong code that
/// started a lock, both `APIError.rateLimited`) closes the boxes and counts the wait down in a banner; once
/// the clock passes it the boxes take digits again. One code-entry core, so no code screen can start the
/// countdown while its twin leaves the boxes open.
@Suite struct CodeEntryTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let wait = 90

    enum CodeScreen: String, CaseIterable, Sendable {
        case phone, signIn, authenticator, setUp

        /// Six digits sent, the screen waiting for the answer.
        var sent: AppState {
            let now = CodeEntryTests.now
            switch self {
            case .phone:
                let screen = EnterCodeScreen(
                    flow: .changePhone, phone: PhoneGallery.newPhone, requestId: "otp_1", expiresAt: now + 300,
                    resendAfter: now + 30, digits: "482915", isWorking: true)
                return SampleData.state([screen], now: now).topWaiting(
                    Endpoint.VerifyOtp.self, EnterCodeScreen.Reply.verify)
            case .signIn:
                let challenge = SignInCodeChallenge(
                    channel: .email, destination: "new.user@mail.com", challengeId: "chl_1")
                let screen = EnterCodeScreen(
                    step: .signIn(challenge), expiresAt: now + 300, resendAfter: now + 30, digits: "482915",
                    isWorking: true)
                return AppState(root: screen, now: now).topWaiting(
                    VerifySignInCode.self, EnterCodeScreen.Reply.verifySignIn)
            case .authenticator:
                let screen = AuthenticatorCodeScreen(digits: "482915", isWorking: true)
                return AppState(root: screen, now: now).topWaiting(
                    VerifySecondFactor.self, AuthenticatorCodeScreen.Reply.signIn)
            case .setUp:
                let screen = TwoFactorSetupScreen(
                    pending: TwoFactorSetupScreen.samplePending(now: now), stage: .confirm, digits: "482915",
                    isWorking: true)
                return SampleData.state([screen], now: now).topWaiting(
                    Endpoint.ConfirmTwoFactorSetup.self, TwoFactorSetupScreen.Reply.confirmed)
            }
        }
    }

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    /// Whether the screen takes `key` (a digit, Backspace).
    func takes(_ key: Key, _ state: AppState) -> Bool {
        var typed = state
        _ = reduce(&typed, .input(.key(key)))
        return typed.top != state.top
    }

    /// Whether the boxes take anything: a digit, or Backspace on the code kept in view.
    func boxesAreOpen(_ state: AppState) -> Bool { takes(.character("1"), state) || takes(.backspace, state) }

    @Test(arguments: CodeScreen.allCases)
    func aRefusalWithAWaitClosesTheBoxesUntilTheClockPassesIt(screen: CodeScreen) {
        var state = screen.sent
        let refusal = APIError.rateLimited(
            retryAfter: Self.wait, message: "Too many wrong codes.", limit: .twoFactorAttempts)
        _ = reduce(&state, .failure(refusal))
        #expect(state.top.base.banner(state.context) != nil, "\(screen): no countdown")
        #expect(text(state).contains("1:30"), "\(screen): the wait is not counted down")
        #expect(!boxesAreOpen(state), "\(screen): the boxes take keys during the wait")

        state.now = Self.now + TimeInterval(Self.wait - 1)
        _ = reduce(&state, .tick)
        #expect(text(state).contains("0:01"))
        #expect(!boxesAreOpen(state))

        state.now = Self.now + TimeInterval(Self.wait)
        _ = reduce(&state, .tick)
        #expect(state.top.base.banner(state.context) == nil, "\(screen): the countdown outlives the wait")
        #expect(takes(.character("1"), state), "\(screen): the boxes stay closed after the wait")
    }
}
