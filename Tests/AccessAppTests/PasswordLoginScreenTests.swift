import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Seed 002's email & password screen, one behaviour each: what is checked before a call, and what
/// each answer does to the form.
@Suite struct PasswordLoginScreenTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func context(_ now: Date) -> ScreenContext { AppState(root: PasswordLoginScreen(), now: now).context }

    func filled(
        _ mode: PasswordLoginScreen.Mode = .login, email: String = "jdoe@mail.com", password: String
    )
        -> PasswordLoginScreen
    {
        PasswordLoginScreen(mode: mode, email: email, password: password, focus: .cta)
    }

    @Test func anInvalidEmailIsSaidBeforeAnyCall() {
        var screen = filled(email: "jdoe@mail", password: "whatever")
        #expect(screen.perform(key: .enter, context(now)) == [])
        #expect(screen.error == OnScreenMessage.invalidEmail.text)
        #expect(screen.focus == .email)
    }

    @Test func registeringChecksThePasswordRulesFirst() {
        var screen = filled(.register, email: "fresh@mail.com", password: "12345678")
        #expect(screen.perform(key: .enter, context(now)) == [])
        #expect(screen.error != nil)
        #expect(!screen.isWorking)
        var good = filled(.register, email: "fresh@mail.com", password: "violet-harbor-77")
        #expect(
            good.perform(key: .enter, context(now)) == [
                .call(
                    Endpoint.Register(email: "fresh@mail.com", password: "violet-harbor-77"),
                    PasswordLoginScreen.Reply.register)
            ])
    }

    @Test func aFailedLoginClearsThePasswordAndKeepsTheEmail() {
        var screen = filled(password: "wrong-one")
        _ = screen.perform(key: .enter, context(now))
        _ = screen.receive(
            .login(.failure(.passwordIncorrect(attemptsRemaining: nil, message: "Invalid email or password"))),
            context(now))
        #expect(screen.error == "Invalid email or password")
        #expect(screen.password.value.isEmpty)
        #expect(screen.email.value == "jdoe@mail.com")
    }

    @Test func noNetworkIsNeverInvalidCredentials() {
        var screen = filled(password: "correct-horse-42")
        _ = screen.perform(key: .enter, context(now))
        _ = screen.receive(.login(.failure(.offline(reason: "refused"))), context(now))
        #expect(screen.error == OnScreenMessage.offline.text)
        #expect(screen.password.value == "correct-horse-42")
    }

    @Test func anExistingAccountKeepsTheForm() {
        var screen = filled(.register, email: "jdoe@mail.com", password: "violet-harbor-77")
        _ = screen.perform(key: .enter, context(now))
        _ = screen.receive(.register(.failure(.taken(message: "taken"))), context(now))
        #expect(screen.error == "An account with this email already exists")
        #expect(screen.password.value == "violet-harbor-77")
    }

    @Test func anUnverifiedAddressOpensTheVerifyScreen() {
        var screen = filled(password: "correct-horse-42")
        _ = screen.perform(key: .enter, context(now))
        let commands = screen.receive(
            .login(.failure(.server(status: 403, code: "email_unverified", message: "verify"))), context(now))
        #expect(commands == [.push(VerifyAccountScreen(email: "jdoe@mail.com", justRegistered: false))])
    }

    /// Issue 28 item 7: "Back to login" after registering lands on the Log in tab (it opened Register),
    /// the address filled in and the password next.
    @Test func backToLoginAfterRegisteringOpensTheLogInTab() {
        var state = AppState(root: SignInScreen(), now: now)
        state.stack.append(AnyScreen(PasswordLoginScreen(mode: .register, email: "fresh@mail.com", focus: .cta)))
        state.stack.append(AnyScreen(VerifyAccountScreen(email: "fresh@mail.com", justRegistered: true)))
        let harness = ReducerHarness(state)
        harness.send(.input(.key(.enter))) {
            $0.stack.removeLast()
            $0.top = AnyScreen(PasswordLoginScreen(mode: .login, email: "fresh@mail.com", focus: .password))
        }
    }

    /// Issue 28 item 2: registering sent the link, so Resend counts down the server's 30 s at once rather
    /// than being offered and silently refused.
    @Test func registeringOpensVerifyWithTheResendCountdown() {
        var screen = filled(.register, email: "fresh@mail.com", password: "violet-harbor-77")
        _ = screen.perform(key: .enter, context(now))
        let commands = screen.receive(
            .register(.success(Registered(email: "fresh@mail.com", linkExpiresAt: now + 86400))), context(now))
        #expect(
            commands == [
                .push(VerifyAccountScreen(email: "fresh@mail.com", justRegistered: true, resendAfter: now + 30))
            ])
    }

    /// Issue 28 item 2: after `r` the screen says when the next email can go, and `r` is off until then.
    @Test func resendingCountsDownBeforeTheNextOne() {
        var screen = VerifyAccountScreen(email: "jdoe@mail.com", justRegistered: false)
        func shown(_ screen: VerifyAccountScreen, at time: Date) -> String {
            render(AppState(root: screen, now: time), size: .standard).text()
        }
        func offersResend(_ screen: VerifyAccountScreen, at time: Date) -> Bool {
            screen.bindings(context(time)).contains { $0.hint.description == "Resend verification" }
        }
        #expect(offersResend(screen, at: now))
        #expect(screen.perform(.resend, context(now)).count == 1)
        let commands = screen.receive(.resend(.success(VerificationResent(message: "sent"))), context(now))
        #expect(commands == [.showToast(VerifyAccountScreen.resentText)])
        #expect(!offersResend(screen, at: now))
        #expect(shown(screen, at: now).contains("Resend in 0:30"))
        #expect(!shown(screen, at: now).contains("Resend verification"))
        #expect(screen.perform(.resend, context(now + 10)) == [])
        _ = screen.tick(context(now + 30))
        #expect(offersResend(screen, at: now + 30))
        #expect(shown(screen, at: now + 30).contains("[ Resend verification ]  r"))
    }

    /// The lockout's wait is counted down from the clock: off until it ends, on at once after.
    @Test func theLockoutCountsDownOnTheClock() {
        var screen = filled(password: "wrong-three")
        _ = screen.perform(key: .enter, context(now))
        _ = screen.receive(.login(.failure(.rateLimited(retryAfter: 30, message: "wait"))), context(now))
        screen.password.setValue("correct-horse-42")
        #expect(!screen.canSubmit(context(now + 29)))
        #expect(screen.banner(context(now + 29)) != nil)
        _ = screen.tick(context(now + 30))
        #expect(screen.lockedUntil == nil)
        #expect(screen.canSubmit(context(now + 30)))
    }

    /// Issue 27: a 401 whose `retry_after` (or `Retry-After`) says this attempt started the lockout locks
    /// the form at once, not on the next try; on the clock's other side it is open again.
    @Test func aWrongPasswordThatStartsTheLockoutLocksAtOnce() {
        var screen = filled(password: "wrong-five")
        _ = screen.perform(key: .enter, context(now))
        let body = Data(#"{"error":{"code":"credentials_invalid","message":"Invalid email or password"}}"#.utf8)
        let failure = APIError.from(status: 401, body: body, retryAfterHeader: "30")
        _ = screen.receive(.login(.failure(failure)), context(now))
        #expect(screen.lockedUntil == now + 30)
        #expect(render(AppState(root: screen, now: now), size: .standard).text().contains("Try again in 0:30"))
        screen.password.setValue("correct-horse-42")
        #expect(!screen.canSubmit(context(now + 29)))
        _ = screen.tick(context(now + 30))
        #expect(screen.lockedUntil == nil)
        #expect(screen.canSubmit(context(now + 30)))
    }

    @Test func ctrlRShowsAndHidesThePassword() {
        var screen = filled(password: "secret-one")
        #expect(!screen.showsPassword)
        _ = screen.perform(key: .control("r"), context(now))
        #expect(screen.showsPassword)
        let shown = render(AppState(root: screen, now: now), size: .standard).text()
        #expect(shown.contains("secret-one"))
        _ = screen.perform(key: .control("r"), context(now))
        let hidden = render(AppState(root: screen, now: now), size: .standard).text()
        #expect(!hidden.contains("secret-one"))
    }

    @Test func theSecretNeverPrints() {
        var screen = filled(password: "correct-horse-42")
        let commands = screen.perform(key: .enter, context(now)) ?? []
        var dump = ""
        Swift.dump(commands, to: &dump)
        #expect(!dump.contains("correct-horse-42"))
    }
}
