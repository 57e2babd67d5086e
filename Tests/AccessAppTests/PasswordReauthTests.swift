import AccessAPI
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
        ReauthGrant(reauthToken: "ra_fixture", expiresAt: now + 15 * 60, method: .password)
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
        harness.finish()
        #expect(harness.state.top.as(PasswordReauthScreen.self)?.field.isMasked == true)
    }

    @Test func enterWithNothingTypedSendsNothing() {
        let harness = ReducerHarness(onPasswordScreen())
        harness.send(.input(.key(.enter)))
        harness.finish()
    }

    @Test func theRightPasswordGrantsAndContinuesTheFlowAndIsNotKept() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "s3cret!!")))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(.reauthByPassword("s3cret!!"), screen: "password-reauth", name: "verify")]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
        }
        let grant = grant(at: start)
        harness.send(.response(screen: "password-reauth", name: "verify", .success(.reauthGranted(grant)))) {
            $0.reauth = grant
            $0.stack = [
                $0.stack[0], $0.stack[1],
                AnyScreen(EnterPhoneScreen(flow: .changePhone, current: SampleData.everyMethod.phone)),
            ]
        }
        harness.finish()
    }

    @Test func aWrongPasswordShowsTheServersMessageUnderTheEmptiedField() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "wrong")))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(.reauthByPassword("wrong"), screen: "password-reauth", name: "verify")]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
        }
        let message = "Password is incorrect. Try again."
        harness.send(
            .response(
                screen: "password-reauth", name: "verify", .failure(.invalid(fieldErrors: [], message: message)))
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, error: message))
        }
        // Retyping clears nothing until the next submit; the error stays visible while typing.
        harness.send(.input(.key(.character("a")))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: "a", error: message))
        }
        harness.finish()
    }

    @Test func enterWhileWaitingDoesNotSendTwice() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true)))
        harness.send(.input(.key(.character("x"))))
        harness.send(.input(.key(.enter)))
        harness.finish()
    }

    @Test func rateLimitedLocksTheFieldWithACountdownBannerUntilTheTimeIsUp() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "guess6")))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(.reauthByPassword("guess6"), screen: "password-reauth", name: "verify")]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
        }
        let message = "Too many attempts. Try again later."
        let until = start + 2
        harness.send(
            .response(
                screen: "password-reauth", name: "verify", .failure(.rateLimited(retryAfter: 2, message: message))),
            effects: [tick]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, error: message, lockedUntil: until))
            $0.banner = .rateLimited(until: until)
            $0.clockTicking = true
        }
        // Locked: typing and Enter go nowhere (and `q` does not quit).
        harness.send(.input(.key(.character("q"))))
        harness.send(.input(.key(.enter)))
        harness.advance(by: 1)
        harness.receive(.tick, effects: [tick])
        harness.advance(by: 1)
        harness.receive(.tick) {
            $0.banner = nil
            $0.clockTicking = false
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone))
        }
        harness.send(.input(.key(.character("p")))) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, password: "p"))
        }
        harness.finish()
    }

    @Test func offlineShowsTheOfflineBannerAndAnInlineError() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "pw")))
        harness.send(
            .input(.key(.enter)),
            effects: [.request(.reauthByPassword("pw"), screen: "password-reauth", name: "verify")]
        ) {
            $0.top = AnyScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true))
        }
        harness.send(.response(screen: "password-reauth", name: "verify", .failure(.offline(reason: "test")))) {
            $0.isOffline = true
            $0.banner = .offline
            $0.top = AnyScreen(
                PasswordReauthScreen(flow: .changePhone, error: APIError.offline(reason: "test").message))
        }
        harness.finish()
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
        harness.finish()
    }

    @Test func escGoesBackToThePickerFromTheField() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, password: "abc")))
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.finish()
    }

    @Test func aReplyAfterLeavingIsDropped() {
        let harness = ReducerHarness(onPasswordScreen(PasswordReauthScreen(flow: .changePhone, isWorking: true)))
        harness.send(.input(.key(.escape))) { $0.stack.removeLast() }
        harness.send(.response(screen: "password-reauth", name: "verify", .success(.reauthGranted(grant(at: start)))))
        harness.finish()
    }
}

@Suite struct SecretTests {
    @Test func aPasswordInAnEffectNeverPrints() {
        let effect = Effect.request(.reauthByPassword("correct-horse-42"), screen: "password-reauth", name: "verify")
        var dumped = ""
        dump(effect, to: &dumped)
        #expect(!dumped.contains("correct-horse-42"))
        #expect(!"\(effect)".contains("correct-horse-42"))
        #expect(!String(reflecting: effect).contains("correct-horse-42"))
        #expect(effect == .request(.reauthByPassword("correct-horse-42"), screen: "password-reauth", name: "verify"))
        #expect(effect != .request(.reauthByPassword("another"), screen: "password-reauth", name: "verify"))
    }
}
