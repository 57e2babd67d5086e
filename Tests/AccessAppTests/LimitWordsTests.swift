import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 46 item 5, limits in words: a screen locked by a limit says which limit, from the answer's `limit` (or,
/// for the 401 that starts a lock and names none, the lock that call has), with its countdown. The password and
/// recovery locks said a generic "Too many attempts" on the banner and in the button's place.
@Suite struct LimitWordsTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    func locked<Request: APIRequest, Reply: Equatable & Sendable>(
        _ screen: some ScreenModel, _ request: Request.Type,
        _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply, by failure: APIError
    ) -> String {
        let state = SampleData.state([screen], now: now).topWaiting(request, reply)
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.failure(failure))
        return text(harness.state)
    }

    static let lockout = APIError.rateLimited(retryAfter: 60, message: "Too many attempts.", limit: .loginLockout)
    static let startsLockout = APIError.passwordIncorrect(
        attemptsRemaining: 0, message: "Invalid email or password", retryAfter: 60)

    @Test(arguments: [lockout, startsLockout])
    func theLoginLockSaysItIsTheLoginLock(_ failure: APIError) {
        let screen = PasswordLoginScreen(email: "jdoe@mail.com", password: "x", focus: .cta, isWorking: true)
        let shown = locked(screen, PasswordLogin.self, PasswordLoginScreen.Reply.login, by: failure)
        #expect(shown.contains("\(OnScreenMessage.waitLoginLockout.text) 1:00"), "\(shown)")
        #expect(!shown.contains(OnScreenMessage.waitUnnamed.text))
    }

    @Test(arguments: [lockout, startsLockout])
    func theRecoveryPasswordLockSaysItIsTheLoginLock(_ failure: APIError) {
        let screen = RecoveryPasswordScreen(
            email: "jdoe@mail.com", token: Secret("tok_recovery"), password: "x", isWorking: true)
        let shown = locked(screen, CompleteRecovery.self, RecoveryPasswordScreen.Reply.complete, by: failure)
        #expect(shown.contains("\(OnScreenMessage.waitLoginLockout.text) 1:00"), "\(shown)")
        #expect(!shown.contains(OnScreenMessage.waitUnnamed.text))
    }

    /// Verify it's you by password: the password lock's words, once; the line under the field says what works
    /// meanwhile, not a second "try again".
    @Test(arguments: [
        APIError.rateLimited(retryAfter: 60, message: "Too many wrong passwords.", limit: .passwordAttempts),
        APIError.passwordIncorrect(attemptsRemaining: 0, message: "Wrong password.", retryAfter: 60),
    ])
    func theReauthPasswordLockSaysItIsThePasswordLock(_ failure: APIError) {
        let screen = PasswordReauthScreen(flow: .changePhone, isWorking: true)
        let shown = locked(screen, Endpoint.ReauthPassword.self, PasswordReauthScreen.Reply.verify, by: failure)
        #expect(shown.contains("\(OnScreenMessage.waitPasswordAttempts.text) 1:00"), "\(shown)")
        #expect(!shown.contains(OnScreenMessage.waitUnnamed.text))
        #expect(!shown.contains("Try again later"), "\(shown)")
    }

    @Test func theRecoveryCodeLockSaysItIsTheTwoFactorLock() {
        let screen = RecoveryCodeSignInScreen(code: "k7m2q-x4bnq", isWorking: true)
        let failure = APIError.rateLimited(retryAfter: 60, message: "Too many.", limit: .twoFactorAttempts)
        let shown = locked(screen, SignInWithRecoveryCode.self, RecoveryCodeSignInScreen.Reply.signIn, by: failure)
        #expect(shown.contains("\(OnScreenMessage.waitTwoFactorAttempts.text) 1:00"), "\(shown)")
        #expect(!shown.contains(OnScreenMessage.waitUnnamed.text))
    }
}
