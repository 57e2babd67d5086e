import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 17 on the screens: what another backend says is shown as it means it, not guessed.
@Suite struct ForeignBackendScreenTests {
    typealias F = PhoneFixture

    @Test func phoneUnchangedIsNotAnInvalidNumber() {
        let harness = ReducerHarness(
            F.state([F.phone("511 200 300", isWorking: true)]).topWaiting(
                Endpoint.RequestOtp.self, EnterPhoneScreen.Reply.code))
        harness.send(.failure(.server(status: 422, code: "phone_unchanged", message: "Same number as now."))) {
            $0.top = F.phone("511 200 300", error: "This is already your number. Enter a new one.")
        }
    }

    @Test func aRefusalInTheServersOwnWordsIsShownInThem() {
        let harness = ReducerHarness(
            F.state([F.phone("511 200 300", isWorking: true)]).topWaiting(
                Endpoint.RequestOtp.self, EnterPhoneScreen.Reply.code))
        harness.send(.failure(.server(status: 409, code: "number_in_use", message: "Registered elsewhere."))) {
            $0.top = F.phone("511 200 300", error: "Registered elsewhere.")
        }
    }

    /// No wait from the server: no invented countdown, and Send code stays live.
    @Test func aRateLimitWithoutAWaitSaysTryLaterAndLetsThePersonRetry() {
        let harness = ReducerHarness(
            F.state([F.phone("511 200 300", isWorking: true)]).topWaiting(
                Endpoint.RequestOtp.self, EnterPhoneScreen.Reply.code))
        harness.send(.failure(.rateLimited(retryAfter: nil, message: APIError.tryLaterText))) {
            $0.top = F.phone("511 200 300", error: APIError.tryLaterText)
        }
        #expect(!F.rendered(harness.state).contains("Try again in"))
        harness.send(
            .input(.key(.enter)),
            effects: [
                .request(
                    Endpoint.RequestOtp(
                        phone: F.newPhone, purpose: .changePhone, reauthToken: "rt_fixture"), id: 1)
            ]
        ) {
            $0.top = F.phone("511 200 300", isWorking: true)
            $0.topAwaits(1, Endpoint.RequestOtp.self)
        }
    }

    /// The 15-minute window closed while the code was typed: "Verify it's you" again, then the same
    /// code goes again with the new token, nothing retyped.
    @Test func reauthRequiredAtVerifyVerifiesAgainAndSendsTheSameCode() {
        let code = AnyScreen(
            EnterCodeScreen(
                flow: .changePhone, phone: F.newPhone, requestId: "otp_1", expiresAt: F.start + 300,
                resendAfter: F.start + 30, digits: "482915", isWorking: true))
        var start = F.state([F.phone("511 200 300"), code]).topWaiting(
            Endpoint.VerifyOtp.self, EnterCodeScreen.Reply.verify)
        start.clockTicking = true
        let harness = ReducerHarness(start)
        let resume = AnyFlow(ResumeCodeEntry(phoneFlow: .changePhone))
        harness.send(.failure(.reauthRequired(message: "Verify it's you first."))) {
            $0.reauth = nil  // refused, so forgotten (AppWideFailure.grantRefused)
            $0.top = AnyScreen(
                EnterCodeScreen(
                    flow: .changePhone, phone: F.newPhone, requestId: "otp_1", expiresAt: F.start + 300,
                    resendAfter: F.start + 30, digits: "482915"))
            $0.stack.append(AnyScreen(ReauthPickerScreen(flow: resume)))
        }
        #expect(F.rendered(harness.state).contains("Your verification timed out."))
        // The password screen, as if the password had been typed and sent.
        harness.send(.input(.key(.enter))) {
            $0.stack.append(AnyScreen(PasswordReauthScreen(flow: resume)))
        }
        var waiting = harness.state
        waiting.top = AnyScreen(PasswordReauthScreen(flow: resume, isWorking: true))
        waiting = waiting.topWaiting(Endpoint.ReauthPassword.self, PasswordReauthScreen.Reply.verify)
        let renewed = ReauthGrant(reauthToken: "rt_renewed", expiresAt: F.start + 900, method: .init(.password))
        let resumed = ReducerHarness(waiting)
        resumed.send(
            .reply(renewed),
            effects: [
                .request(Endpoint.VerifyOtp(requestId: "otp_1", code: "482915", reauthToken: "rt_renewed"), id: 1)
            ]
        ) {
            $0.reauth = renewed
            $0.stack.removeLast(2)
            $0.top = AnyScreen(
                EnterCodeScreen(
                    flow: .changePhone, phone: F.newPhone, requestId: "otp_1", expiresAt: F.start + 300,
                    resendAfter: F.start + 30, digits: "482915", isWorking: true))
            $0.topAwaits(1, Endpoint.VerifyOtp.self)
        }
    }

    /// Another backend has no simulated provider: the picker offers the pasted ID token (issue 27), and
    /// sends nothing to /_admin.
    @Test func providerReauthWithoutTheReferenceBackendTakesAPastedToken() {
        var state = F.state([AnyScreen(ReauthPickerScreen(flow: .changePhone))])
        state.options.hasReferenceBackend = false
        state.reauth = nil
        let harness = ReducerHarness(state)
        #expect(F.rendered(harness.state).contains("Paste an ID token"))
        let methods = SampleData.everyMethod.reauthMethods(excluding: .phone, platform: state.options.platform)
        let apple = try! #require(methods.firstIndex(of: .apple))
        for _ in 0..<apple {
            harness.send(.input(.key(.down))) {
                var picker = $0.top.as(ReauthPickerScreen.self)!
                picker.selection += 1
                $0.top = AnyScreen(picker)
            }
        }
        harness.send(.input(.key(.enter))) {
            $0.stack.append(AnyScreen(ProviderTokenScreen(provider: .apple, purpose: .reauth(.changePhone))))
        }
        #expect(harness.state.overlay == nil)
    }
}
