import AccessAPI
import AccessAppTesting
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Seed 004's optional display name on Continue with phone and with email (issue 28 item 26): Tab reaches
/// it after the address, Enter still sends from the address, the rule is checked as it is typed, the name
/// goes with the code, and the server's 422 for it is said under the field.
@Suite struct DisplayNameFlowTests {
    typealias F = PhoneFixture

    func challenge(_ channel: SignInChannel = .phone, destination: String = "+995511123456") -> SignInChallenge {
        SignInChallenge(
            challengeId: "chl_1", channel: .init(channel), destination: destination, expiresAt: F.start + 300,
            resendAfter: F.start + 30)
    }

    func onPhone(_ number: String = "511 123 456") -> AppState {
        var state = AppState(root: SignInScreen(), now: F.start)
        state.stack.append(AnyScreen(EnterPhoneScreen.signIn(region: "GE", number: number)))
        return state
    }

    func onEmail(_ typed: String = "new.user@mail.com") -> AppState {
        var state = AppState(root: SignInScreen(selection: 1), now: F.start)
        state.stack.append(AnyScreen(SignInEmailScreen(email: typed)))
        return state
    }

    func type(_ text: String, into harness: ReducerHarness) {
        for character in text { harness.send(.input(.key(.character(character)))) }
    }

    func phoneScreen(_ state: AppState) throws -> EnterPhoneScreen { try #require(state.top.base as? EnterPhoneScreen) }
    func emailScreen(_ state: AppState) throws -> SignInEmailScreen {
        try #require(state.top.base as? SignInEmailScreen)
    }
    func codeScreen(_ state: AppState) throws -> EnterCodeScreen { try #require(state.top.base as? EnterCodeScreen) }

    @Test func tabGoesFromTheNumberToTheNameThenTheButtonAndTheChip() throws {
        let harness = ReducerHarness(onPhone(), exhaustivity: .off)
        var order: [EnterPhoneScreen.Focus] = []
        for _ in 0..<4 {
            harness.send(.input(.key(.tab)))
            order.append(try phoneScreen(harness.state).focus)
        }
        #expect(order == [.displayName, .cta, .chip, .field])
        harness.send(.input(.key(.backTab)))
        #expect(try phoneScreen(harness.state).focus == .chip)
        // The account's own number has no name field: Tab goes from the number to the button, as before.
        let changeHarness = ReducerHarness(F.state([F.phone("511 200 300")]), exhaustivity: .off)
        changeHarness.send(.input(.key(.tab)))
        #expect(try phoneScreen(changeHarness.state).focus == .cta)
    }

    /// The main path is untouched: Enter from the number sends, with no name.
    @Test func enterFromTheNumberStillSendsAndNoNameGoesWithTheCode() throws {
        let harness = ReducerHarness(onPhone(), exhaustivity: .off)
        let sent = harness.send(.input(.key(.enter)))
        #expect(sent == [.request(Endpoint.StartSignInCode(channel: .phone, phone: "+995511123456"), id: 1)])
        harness.send(.reply(challenge(), to: RequestID(1)))
        for digit in "123456" { harness.send(.input(.key(.character(digit)))) }
        #expect(harness.state.pending[RequestID(2)] != nil)
        #expect(
            try codeScreen(harness.state).step
                == .signIn(SignInCodeChallenge(challenge(), asked: .phone, displayName: nil)))
    }

    /// The name typed (surrounding spaces trimmed) goes with the code, through a resend too.
    @Test func theNameTypedOnThePhoneScreenGoesWithTheCode() throws {
        let harness = ReducerHarness(onPhone(), exhaustivity: .off)
        harness.send(.input(.key(.tab)))
        type("  Jane Doe ", into: harness)
        #expect(try phoneScreen(harness.state).displayName.field.value == "  Jane Doe ")
        #expect(try phoneScreen(harness.state).field.value == "511 123 456")
        harness.send(.input(.key(.enter)))
        harness.send(.reply(challenge(), to: RequestID(1)))
        harness.advance(by: 30)
        harness.send(.input(.key(.character("r"))))
        var renewed = challenge()
        renewed.challengeId = "chl_2"
        harness.send(.reply(renewed, to: RequestID(2)))
        var sent: [Effect] = []
        for digit in "123456" { sent = harness.send(.input(.key(.character(digit)))) }
        #expect(
            sent == [.request(VerifySignInCode(challengeId: "chl_2", code: "123456", displayName: "Jane Doe"), id: 3)])
    }

    /// Both sides of the rule as it is typed: 50 characters may go, the 51st says why Send code is off and
    /// Enter sends nothing; a blank field is no name at all.
    @Test func theRuleIsCheckedAsTheNameIsTyped() throws {
        let harness = ReducerHarness(onEmail(), exhaustivity: .off)
        harness.send(.input(.key(.tab)))
        #expect(try emailScreen(harness.state).focus == .displayName)
        harness.send(.input(.paste(String(repeating: "a", count: DisplayNameRules.maximumLength))))
        #expect(try emailScreen(harness.state).displayName.problem == nil)
        #expect(!F.rendered(harness.state).contains(DisplayNameRules.problem))
        type("b", into: harness)
        #expect(try emailScreen(harness.state).displayName.problem == DisplayNameRules.problem)
        #expect(F.rendered(harness.state).contains(DisplayNameRules.problem))
        #expect(harness.send(.input(.key(.enter))) == [])
        harness.send(.input(.key(.backspace)))
        #expect(try emailScreen(harness.state).displayName.problem == nil)

        let blankHarness = ReducerHarness(onEmail(), exhaustivity: .off)
        blankHarness.send(.input(.key(.tab)))
        type("   ", into: blankHarness)
        #expect(try emailScreen(blankHarness.state).displayName.problem == nil)
        #expect(blankHarness.send(.input(.key(.enter))).count == 1)
        blankHarness.send(.reply(challenge(.email, destination: "new.user@mail.com"), to: RequestID(1)))
        #expect(
            try codeScreen(blankHarness.state).step
                == .signIn(
                    SignInCodeChallenge(
                        challenge(.email, destination: "new.user@mail.com"), asked: .email, displayName: nil)))
    }

    /// Another backend's bounds differ: its 422 for the name goes back to the field with its words (the
    /// prefix naming the field dropped), and the corrected name goes with the same code, with no second send.
    @Test func theServersRefusalOfTheNameIsSaidUnderTheFieldAndTheCodeIsKept() throws {
        let harness = ReducerHarness(onEmail(), exhaustivity: .off)
        harness.send(.input(.key(.tab)))
        type("Jane Doe", into: harness)
        harness.send(.input(.key(.enter)))
        let sent = challenge(.email, destination: "new.user@mail.com")
        harness.send(.reply(sent, to: RequestID(1)))
        for digit in "123456" { harness.send(.input(.key(.character(digit)))) }
        let refusal = APIError.invalid(
            fieldErrors: ["display_name"], message: "display_name: A display name takes 1 to 5 characters.")
        harness.send(.failure(refusal, to: RequestID(2)))
        let back = try emailScreen(harness.state)
        #expect(back.focus == .displayName)
        #expect(back.displayName.problem == "A display name takes 1 to 5 characters.")
        #expect(back.refusedChallenge == sent)
        #expect(F.rendered(harness.state).contains("A display name takes 1 to 5 characters."))
        for _ in 0..<4 { harness.send(.input(.key(.backspace))) }
        #expect(try emailScreen(harness.state).displayName.problem == nil)
        #expect(harness.send(.input(.key(.enter))) == [])
        #expect(
            try codeScreen(harness.state).step == .signIn(SignInCodeChallenge(sent, asked: .email, displayName: "Jane"))
        )
        var verified: [Effect] = []
        for digit in "123456" { verified = harness.send(.input(.key(.character(digit)))) }
        #expect(
            verified == [.request(VerifySignInCode(challengeId: "chl_1", code: "123456", displayName: "Jane"), id: 3)])
    }

    /// The same on Continue with phone, and a refusal naming another field stays on the code screen.
    @Test func onThePhoneScreenTooAndOnlyForTheName() throws {
        let harness = ReducerHarness(onPhone(), exhaustivity: .off)
        harness.send(.input(.key(.tab)))
        type("Jane", into: harness)
        harness.send(.input(.key(.enter)))
        harness.send(.reply(challenge(), to: RequestID(1)))
        for digit in "123456" { harness.send(.input(.key(.character(digit)))) }
        harness.send(.failure(.invalid(fieldErrors: [], message: "device: bad key"), to: RequestID(2)))
        #expect(try codeScreen(harness.state).entry.refusal == .message("device: bad key"))
        for _ in 0..<6 { harness.send(.input(.key(.backspace))) }
        for digit in "123456" { harness.send(.input(.key(.character(digit)))) }
        harness.send(.failure(.invalid(fieldErrors: ["display_name"], message: "Too long"), to: RequestID(3)))
        let back = try phoneScreen(harness.state)
        #expect(back.focus == .displayName)
        #expect(back.displayName.problem == "Too long")
        #expect(back.refusedChallenge == challenge())
    }

    @Test func settingsAndYoureAllSetNameThePerson() {
        var state = AppState(now: F.start)
        state.profile = Profile(
            username: "jdoe", displayName: "Jane Doe", onboardingStep: .init(.complete), emailVerified: true)
        #expect(F.rendered(state).contains("Signed in as Jane Doe (@jdoe)"))
        state.profile?.username = nil
        #expect(F.rendered(state).contains("Signed in as Jane Doe"))
        state.profile = nil
        #expect(!F.rendered(state).contains("Signed in as"))
        var done = AppState(root: OnboardingDoneScreen(), now: F.start)
        done.profile = Profile(
            username: "jdoe", displayName: "Jane", onboardingStep: .init(.complete), emailVerified: true)
        #expect(F.rendered(done).contains("Your account is ready, Jane (@jdoe)."))
    }
}
