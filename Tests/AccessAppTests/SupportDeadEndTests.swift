import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 49 item 6: Contact support from every dead end, the prepared mail naming who (the user ID, or the
/// number or address typed when signed out), the flow and screen, and the last error with its request ID.
@Suite struct SupportDeadEndTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let userId = SampleData.everyMethod.userId
    let held = APIError.server(
        status: 409, code: "recently_deleted",
        message: "This number belonged to an account that was deleted less than 7 days ago. Try again later.")

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    /// The support screen pushed for `ticket`, waiting for the journal's last error as request `id`.
    func pushed(_ ticket: SupportTicket, id: Int) -> (inout AppState) -> Void {
        { state in
            state.stack.append(AnyScreen(ContactSupportScreen(ticket: ticket)))
            state.topAwaits(id, LoadLastError.self)
        }
    }

    /// The journal's answer lands in the ticket, and the mail carries it.
    func answerTheJournal(
        _ harness: ReducerHarness, id: Int, with lastError: SupportTicket.LastError, ticket: SupportTicket
    ) {
        var known = ticket
        known.lastError = lastError
        harness.send(.reply(Optional(lastError), to: RequestID(id))) {
            $0.top = AnyScreen(ContactSupportScreen(ticket: known))
            $0.answered(RequestID(id))
        }
        let mail = ContactSupportScreen.mail(known, options: harness.state.options)
        #expect(mail.body.contains("Last error: \(lastError.code)\nRequest ID: \(lastError.requestID)"))
        #expect(text(harness.state).contains("Request ID    \(lastError.requestID)"))
    }

    /// The two-factor step of a sign-in: the session is aal1 and can do nothing else; s is support, for the
    /// user the sign-in named.
    @Test func theTwoFactorStepOffersSupportForTheSignedInUser() {
        var state = AppState(root: AuthenticatorCodeScreen(), now: start)
        state.methods = SampleData.everyMethod
        state.methodsFetchedAt = start
        let harness = ReducerHarness(state)
        let ticket = SupportTicket(who: .user(userId), flow: ["authenticator-code"])
        harness.send(
            .input(.key(.character("s"))), effects: [.request(LoadLastError(), id: 1)],
            pushed(ticket, id: 1))
        answerTheJournal(
            harness, id: 1, with: .init(code: "code_incorrect", requestID: "9c1e-4"), ticket: ticket)
    }

    /// Sign-in's own row: nobody signed in and nothing typed, the mail says so rather than "[unknown]".
    @Test func signInOffersSupportWithNothingTyped() {
        let harness = ReducerHarness(AppState(root: SignInScreen(), now: start), exhaustivity: .off)
        for _ in SignInScreen.Row.allCases { harness.send(.input(.key(.down))) }
        harness.send(.input(.key(.enter)))
        #expect(
            harness.state.top
                == AnyScreen(ContactSupportScreen(ticket: SupportTicket(who: .signedOut, flow: ["sign-in"]))))
        #expect(text(harness.state).contains("User ID       not signed in"))
    }

    /// The sign-in code's screen: the number the code went to stands for the user.
    @Test func theSignInCodeOffersSupportForTheNumberTyped() {
        let challenge = SignInChallenge(
            challengeId: "chl_1", channel: .init(.phone), destination: "+995511200300", expiresAt: start + 300,
            resendAfter: start + 30)
        var state = AppState(root: SignInScreen(), now: start)
        state.stack.append(AnyScreen(EnterCodeScreen(signIn: challenge, channel: .phone)))
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.control("s"))))
        let ticket = SupportTicket(who: .phone("+995511200300"), flow: ["sign-in", "enter-code"])
        #expect(harness.state.top == AnyScreen(ContactSupportScreen(ticket: ticket)))
        #expect(ContactSupportScreen.mail(ticket, options: AppOptions()).subject == "Help [+995 511 200 300]")
    }

    /// The hold on a deleted account's number: nothing to do here but wait seven days or use another number,
    /// so Ctrl+S offers support, with the number typed; before the hold it is not offered.
    @Test func theHoldOnANumberOffersSupportWithTheNumber() {
        var state = AppState(root: SignInScreen(), now: start)
        state.stack.append(AnyScreen(EnterPhoneScreen.signIn(region: "GE", number: "511 200 300")))
        let harness = ReducerHarness(state, exhaustivity: .off)
        #expect(keymap(for: harness.state).hint(for: .control("s")) == nil)
        harness.send(.input(.key(.control("s"))))
        #expect(harness.state.top.id == "enter-phone")
        harness.send(.input(.key(.enter)))
        let id = harness.state.pending.keys.first ?? .inFlight
        harness.send(.failure(held, to: id))
        #expect(text(harness.state).contains("This number belonged to an account that was deleted less than"))
        #expect(text(harness.state).contains("Contact support"))
        harness.send(.input(.key(.control("s"))))
        #expect(
            harness.state.top
                == AnyScreen(
                    ContactSupportScreen(
                        ticket: SupportTicket(who: .phone("+995511200300"), flow: ["sign-in", "enter-phone"]))))
    }

    /// The same hold on an address, on Continue with email.
    @Test func theHoldOnAnAddressOffersSupportWithTheAddress() {
        var state = AppState(root: SignInScreen(), now: start)
        state.stack.append(AnyScreen(SignInEmailScreen(email: "ana@example.com")))
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.enter)))
        let id = harness.state.pending.keys.first ?? .inFlight
        harness.send(.failure(.server(status: 409, code: "recently_deleted", message: "Held."), to: id))
        harness.send(.input(.key(.control("s"))))
        #expect(
            harness.state.top
                == AnyScreen(
                    ContactSupportScreen(
                        ticket: SupportTicket(who: .email("ana@example.com"), flow: ["sign-in", "sign-in-email"]))))
    }

    /// Any other refusal of the number keeps the screen as it was: support is for the hold.
    @Test func anotherRefusalOfTheNumberOffersNoSupport() {
        var state = AppState(root: SignInScreen(), now: start)
        state.stack.append(AnyScreen(EnterPhoneScreen.signIn(region: "GE", number: "511 200 300")))
        let harness = ReducerHarness(state, exhaustivity: .off)
        harness.send(.input(.key(.enter)))
        let id = harness.state.pending.keys.first ?? .inFlight
        harness.send(.failure(.server(status: 409, code: "some_refusal", message: "No."), to: id))
        harness.send(.input(.key(.control("s"))))
        #expect(harness.state.top.id == "enter-phone")
    }

    /// A "calling…" screen that failed with no way forward (a refusal, not worth retrying): s is support, and
    /// the screen says so; while the call runs there is no such key.
    @Test func aFailedBusyScreenOffersSupport() {
        let failed = DeletingAccountScreen(isWorking: false, error: "Something went wrong.", canRetry: false)
        let harness = ReducerHarness(SampleData.state([failed], now: start))
        #expect(text(harness.state).contains("Press s to contact support, or Esc to go back."))
        let ticket = SupportTicket(who: .user(userId), flow: ["settings", "hub", "deleting-account"])
        harness.send(
            .input(.key(.character("s"))), effects: [.request(LoadLastError(), id: 1)],
            pushed(ticket, id: 1))
        answerTheJournal(harness, id: 1, with: .init(code: "delete_blocked", requestID: "77aa-9"), ticket: ticket)

        let busy = ReducerHarness(SampleData.state([DeletingAccountScreen()], now: start))
        #expect(keymap(for: busy.state).hint(for: .character("s")) == nil)
    }

    /// Every busy screen's failure offers it, the retryable ones too, beside Try again.
    @Test func aRetryableFailureOffersSupportBesideTryAgain() {
        let failed = DisconnectingScreen(provider: .google, error: "No connection.")
        let harness = ReducerHarness(SampleData.state([failed], now: start), exhaustivity: .off)
        #expect(text(harness.state).contains("Press Enter to try again, s to contact support, or Esc to go back."))
        harness.send(.input(.key(.character("s"))))
        #expect(
            harness.state.top
                == AnyScreen(
                    ContactSupportScreen(
                        ticket: SupportTicket(who: .user(userId), flow: ["settings", "hub", "disconnecting-provider"]))),
            "\(harness.state.stack.map(\.id))")
    }
}

extension AppState {
    /// Contact support pushed over the stack as it is, for `who`, waiting for the journal's last error.
    mutating func supportPushed(_ who: SupportTicket.Who) {
        let ticket = SupportTicket(who: who, flow: stack.map(\.id))
        let id = nextRequestID
        stack.append(AnyScreen(ContactSupportScreen(ticket: ticket)))
        topAwaits(id, LoadLastError.self)
    }
}
