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

    func type(_ text: String, into state: inout AppState) {
        for character in text { _ = reduce(&state, .input(.key(.character(character)))) }
    }

    func phoneScreen(_ state: AppState) throws -> EnterPhoneScreen { try #require(state.top.base as? EnterPhoneScreen) }
    func emailScreen(_ state: AppState) throws -> SignInEmailScreen {
        try #require(state.top.base as? SignInEmailScreen)
    }
    func codeScreen(_ state: AppState) throws -> EnterCodeScreen { try #require(state.top.base as? EnterCodeScreen) }

    @Test func tabGoesFromTheNumberToTheNameThenTheButtonAndTheChip() throws {
        var state = onPhone()
        var order: [EnterPhoneScreen.Focus] = []
        for _ in 0..<4 {
            _ = reduce(&state, .input(.key(.tab)))
            order.append(try phoneScreen(state).focus)
        }
        #expect(order == [.displayName, .cta, .chip, .field])
        _ = reduce(&state, .input(.key(.backTab)))
        #expect(try phoneScreen(state).focus == .chip)
        // The account's own number has no name field: Tab goes from the number to the button, as before.
        var change = F.state([F.phone("511 200 300")])
        _ = reduce(&change, .input(.key(.tab)))
        #expect(try phoneScreen(change).focus == .cta)
    }

    /// The main path is untouched: Enter from the number sends, with no name.
    @Test func enterFromTheNumberStillSendsAndNoNameGoesWithTheCode() throws {
        var state = onPhone()
        let sent = reduce(&state, .input(.key(.enter)))
        #expect(sent == [.request(Endpoint.StartSignInCode(channel: .phone, phone: "+995511123456"), id: 1)])
        _ = reduce(&state, .reply(challenge(), to: RequestID(1)))
        for digit in "123456" { _ = reduce(&state, .input(.key(.character(digit)))) }
        #expect(state.pending[RequestID(2)] != nil)
        #expect(
            try codeScreen(state).step == .signIn(SignInCodeChallenge(challenge(), asked: .phone, displayName: nil)))
    }

    /// The name typed (surrounding spaces trimmed) goes with the code, through a resend too.
    @Test func theNameTypedOnThePhoneScreenGoesWithTheCode() throws {
        var state = onPhone()
        _ = reduce(&state, .input(.key(.tab)))
        type("  Jane Doe ", into: &state)
        #expect(try phoneScreen(state).displayName.field.value == "  Jane Doe ")
        #expect(try phoneScreen(state).field.value == "511 123 456")
        _ = reduce(&state, .input(.key(.enter)))
        _ = reduce(&state, .reply(challenge(), to: RequestID(1)))
        state.now = F.start + 30
        _ = reduce(&state, .input(.key(.character("r"))))
        var renewed = challenge()
        renewed.challengeId = "chl_2"
        _ = reduce(&state, .reply(renewed, to: RequestID(2)))
        var sent: [Effect] = []
        for digit in "123456" { sent = reduce(&state, .input(.key(.character(digit)))) }
        #expect(
            sent == [.request(VerifySignInCode(challengeId: "chl_2", code: "123456", displayName: "Jane Doe"), id: 3)])
    }

    /// Both sides of the rule as it is typed: 50 characters may go, the 51st says why Send code is off and
    /// Enter sends nothing; a blank field is no name at all.
    @Test func theRuleIsCheckedAsTheNameIsTyped() throws {
        var state = onEmail()
        _ = reduce(&state, .input(.key(.tab)))
        #expect(try emailScreen(state).focus == .displayName)
        _ = reduce(&state, .input(.paste(String(repeating: "a", count: DisplayNameRules.maximumLength))))
        #expect(try emailScreen(state).displayName.problem == nil)
        #expect(!F.rendered(state).contains(DisplayNameRules.problem))
        type("b", into: &state)
        #expect(try emailScreen(state).displayName.problem == DisplayNameRules.problem)
        #expect(F.rendered(state).contains(DisplayNameRules.problem))
        #expect(reduce(&state, .input(.key(.enter))) == [])
        _ = reduce(&state, .input(.key(.backspace)))
        #expect(try emailScreen(state).displayName.problem == nil)

        var blank = onEmail()
        _ = reduce(&blank, .input(.key(.tab)))
        type("   ", into: &blank)
        #expect(try emailScreen(blank).displayName.problem == nil)
        #expect(reduce(&blank, .input(.key(.enter))).count == 1)
        _ = reduce(&blank, .reply(challenge(.email, destination: "new.user@mail.com"), to: RequestID(1)))
        #expect(
            try codeScreen(blank).step
                == .signIn(
                    SignInCodeChallenge(
                        challenge(.email, destination: "new.user@mail.com"), asked: .email, displayName: nil)))
    }

    /// Another backend's bounds differ: its 422 for the name goes back to the field with its words (the
    /// prefix naming the field dropped), and the corrected name goes with the same code, with no second send.
    @Test func theServersRefusalOfTheNameIsSaidUnderTheFieldAndTheCodeIsKept() throws {
        var state = onEmail()
        _ = reduce(&state, .input(.key(.tab)))
        type("Jane Doe", into: &state)
        _ = reduce(&state, .input(.key(.enter)))
        let sent = challenge(.email, destination: "new.user@mail.com")
        _ = reduce(&state, .reply(sent, to: RequestID(1)))
        for digit in "123456" { _ = reduce(&state, .input(.key(.character(digit)))) }
        let refusal = APIError.invalid(
            fieldErrors: ["display_name"], message: "display_name: A display name takes 1 to 5 characters.")
        _ = reduce(&state, .failure(refusal, to: RequestID(2)))
        let back = try emailScreen(state)
        #expect(back.focus == .displayName)
        #expect(back.displayName.problem == "A display name takes 1 to 5 characters.")
        #expect(back.refusedChallenge == sent)
        #expect(F.rendered(state).contains("A display name takes 1 to 5 characters."))
        for _ in 0..<4 { _ = reduce(&state, .input(.key(.backspace))) }
        #expect(try emailScreen(state).displayName.problem == nil)
        #expect(reduce(&state, .input(.key(.enter))) == [])
        #expect(try codeScreen(state).step == .signIn(SignInCodeChallenge(sent, asked: .email, displayName: "Jane")))
        var verified: [Effect] = []
        for digit in "123456" { verified = reduce(&state, .input(.key(.character(digit)))) }
        #expect(
            verified == [.request(VerifySignInCode(challengeId: "chl_1", code: "123456", displayName: "Jane"), id: 3)])
    }

    /// The same on Continue with phone, and a refusal naming another field stays on the code screen.
    @Test func onThePhoneScreenTooAndOnlyForTheName() throws {
        var state = onPhone()
        _ = reduce(&state, .input(.key(.tab)))
        type("Jane", into: &state)
        _ = reduce(&state, .input(.key(.enter)))
        _ = reduce(&state, .reply(challenge(), to: RequestID(1)))
        for digit in "123456" { _ = reduce(&state, .input(.key(.character(digit)))) }
        _ = reduce(&state, .failure(.invalid(fieldErrors: [], message: "device: bad key"), to: RequestID(2)))
        #expect(try codeScreen(state).entry.refusal == .message("device: bad key"))
        for _ in 0..<6 { _ = reduce(&state, .input(.key(.backspace))) }
        for digit in "123456" { _ = reduce(&state, .input(.key(.character(digit)))) }
        _ = reduce(&state, .failure(.invalid(fieldErrors: ["display_name"], message: "Too long"), to: RequestID(3)))
        let back = try phoneScreen(state)
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
