import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

@Suite struct PasswordReauthTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let tick = Effect.after(seconds: 1, action: .tick, id: .clock)
    let picker = ReauthPickerScreen(flow: .changePhone)

    func onPasswordScreen(_ screen: PasswordReauthScreen = PasswordReauthScreen(flow: .changePhone)) -> AppState {
        SampleData.state([picker, screen], now: start)
    }

    func grant(at now: Date) -> ReauthGrant {
        ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 15 * 60, method: .init(.password))
    }

    func type(_ text: String, into harness: ReducerHarness) {
        var typed = ""
        for character in text {
            typed.append(character)
            let value = typed
            harness.send(.input(.key(.character(character)))) {
                $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: value))
            }
        }
    }

    @Test func typingFillsTheMaskedFieldAndQIsText() {
        let harness = ReducerHarness(onPasswordScreen())
        type("q?x", into: harness)
        harness.send(.input(.key(.backspace))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: "q?"))
        }
        #expect(harness.state.top.as(PasswordReauthScreen.self)?.field.isMasked == true)
    }

    @Test func enterWithNothingTypedSendsNothing() {
        let harness = ReducerHarness(onPasswordScreen())
        harness.send(.input(.key(.enter)))
    }

    @Test func theRightPasswordGrantsAndContinuesTheFlowAndIsNotKept() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "s3cret!!")))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.ReauthPassword(password: "s3cret!!"), id: 1)]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthPassword.self)
        }
        let grant = grant(at: start)
        harness.send(.reply(grant, to: RequestID(1))) {
            $0.reauth = grant
            $0.stack = [
                $0.stack[0], $0.stack[1],
                AnyScreen(EnterPhoneScreen(flow: .changePhone, current: SampleData.everyMethod.phone)),
            ]
        }
    }

    @Test func aWrongPasswordShowsTheServersMessageUnderTheEmptiedField() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "wrong")))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.ReauthPassword(password: "wrong"), id: 1)]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthPassword.self)
        }
        let message = "Password is incorrect. Try again."
        harness.send(.failure(.invalid(fieldErrors: [], message: message), to: RequestID(1))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, error: message))
        }
        // Retyping clears nothing until the next submit; the error stays visible while typing.
        harness.send(.input(.key(.character("a")))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: "a", error: message))
        }
    }

    @Test func enterWhileWaitingDoesNotSendTwice() {
        let harness = ReducerHarness(
            onPasswordScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true)).topWaiting(
                Endpoint.ReauthPassword.self, PasswordReauthScreen.Reply.verify))
        harness.send(.input(.key(.character("x"))))
        harness.send(.input(.key(.enter)))
    }

    @Test func rateLimitedLocksTheFieldWithACountdownBannerUntilTheTimeIsUp() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "guess6")))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.ReauthPassword(password: "guess6"), id: 1)]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthPassword.self)
        }
        let message = PasswordReauthScreen.lockedText
        let until = start + 2
        // Whatever the server says, the lock has one wording, live and in the gallery.
        harness.send(.failure(.rateLimited(retryAfter: 2, message: "Rate limited."), to: RequestID(1)), effects: [tick])
        {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, error: message, lockedUntil: until))
            $0.clockTicking = true
        }
        // Locked: typing and Enter go nowhere (and `q` does not quit).
        harness.send(.input(.key(.character("q"))))
        harness.send(.input(.key(.enter)))
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        harness.advance(by: 1)
        harness.receive(.tick) {
            $0.clockTicking = false
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone))
        }
        #expect(!render(harness.state, size: .standard).text().contains("Try again"))
        harness.send(.input(.key(.character("p")))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: "p"))
        }
    }

    /// Issue 27: a 401 that carries `retry_after` means this very attempt started the lockout: it shows at
    /// once, counts down on the moved clock, and the field is back on the other side.
    @Test func aWrongPasswordThatStartsTheLockoutShowsItAtOnce() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "guess5")))
        harness.send(.input(.key(.enter)), effects: [.request(Endpoint.ReauthPassword(password: "guess5"), id: 1)]) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthPassword.self)
        }
        let body = Data(#"{"error":{"code":"password_incorrect","message":"Wrong password.","retry_after":2}}"#.utf8)
        let failure = APIError.from(status: 401, body: body, retryAfterHeader: nil)
        #expect(failure == .passwordIncorrect(attemptsRemaining: nil, message: "Wrong password.", retryAfter: 2))
        let message = PasswordReauthScreen.lockedText
        harness.send(.failure(failure, to: RequestID(1)), effects: [tick]) {
            $0.top = AnyScreen(
                PasswordReauthScreen(
                    flow: .changePhone, error: message, lockedUntil: self.start + 2, lockKind: .passwordAttempts))
            $0.clockTicking = true
        }
        #expect(render(harness.state, size: .standard).text().contains("Try again in 0:02"))
        harness.send(.input(.key(.enter)))  // locked: nothing is sent
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        #expect(render(harness.state, size: .standard).text().contains("Try again in 0:01"))
        harness.advance(by: 1)
        harness.receive(.tick) {
            $0.clockTicking = false
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone))
        }
        #expect(!render(harness.state, size: .standard).text().contains("Try again"))
    }

    @Test func offlineShowsTheOfflineBannerAndAnInlineError() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "pw")))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(Endpoint.ReauthPassword(password: "pw"), id: 1)]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
            $0.topAwaits(1, Endpoint.ReauthPassword.self)
        }
        harness.send(.failure(.offline(reason: "test"), to: RequestID(1)), effects: [.firstProbe]) {
            $0.wentOffline()
            $0.top = AnyScreen(
                PasswordReauthScreen(flow: .changePhone, error: APIError.offline(reason: "test").message))
        }
        harness.expectRunning(.firstProbe)
    }

    @Test func forgotItUseAnotherWayGoesBackToThePicker() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "abc")))
        harness.send(.input(.key(.tab))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: "abc", focus: .anotherWay))
        }
        harness.send(.input(.key(.character("z"))))  // not text while the action is focused
        harness.send(.input(.key(.up))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: "abc"))
        }
        harness.send(.input(.key(.down))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: "abc", focus: .anotherWay))
        }
        harness.send(.input(.key(.enter))) { $0.stack.removeLast() }
        #expect(harness.state.top.id == "reauth-picker")
    }

    @Test func escGoesBackToThePickerFromTheField() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "abc")))
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
    }

    @Test func aReplyAfterLeavingIsDropped() {
        let harness = ReducerHarness(
            onPasswordScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true)).topWaiting(
                Endpoint.ReauthPassword.self, PasswordReauthScreen.Reply.verify))
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.send(.reply(grant(at: start)))
    }

    /// Issue 10: the fifth wrong password used to come without warning; the fourth now says one is left.
    @Test func theLastTryBeforeTheLockIsAnnounced() {
        let harness = ReducerHarness(
            onPasswordScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true)).topWaiting(
                Endpoint.ReauthPassword.self, PasswordReauthScreen.Reply.verify))
        let message = "Password is incorrect. Try again."
        harness.send(.failure(.passwordIncorrect(attemptsRemaining: 1, message: message))) {
            $0.top = AnyScreen(
                PasswordReauthScreen(
                    flow: .changePhone,
                    error: "Password is incorrect. Try again. One try left, then password sign-in locks for 15 minutes."
                ))
        }
    }
}

@Suite struct SecretTests {
    @Test func aPasswordInAnEffectNeverPrints() {
        let effect = Effect.request(Endpoint.ReauthPassword(password: "correct-horse-42"), id: 1)
        var dumped = ""
        dump(effect, to: &dumped)
        #expect(!dumped.contains("correct-horse-42"))
        #expect(!"\(effect)".contains("correct-horse-42"))
        #expect(!String(reflecting: effect).contains("correct-horse-42"))
        #expect(effect == .request(Endpoint.ReauthPassword(password: "correct-horse-42"), id: 1))
        #expect(effect != .request(Endpoint.ReauthPassword(password: "another"), id: 1))
    }
}
