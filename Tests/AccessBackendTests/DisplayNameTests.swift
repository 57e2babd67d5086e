import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

/// Seed 004's optional display name, given with a sign-in code: both sides of its bounds (1 to 50
/// characters once trimmed), kept on a sign-up's account, replaced on a later sign-in that gives one.
@Suite struct DisplayNameTests {
    static func verify(_ backend: TestBackend, _ id: String, _ code: String, name: String?) async throws -> Reply {
        try await backend.post(
            "/auth/sign-in/code/verify",
            VerifySignInCodeBody(challengeId: id, code: code, device: SignInCodeTests.device, displayName: name))
    }

    @Test func fiftyCharactersAfterTrimmingAreKeptOnTheNewAccount() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let name = String(repeating: "a", count: DisplayNameRules.maximumLength)
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511123456").decode()
            let signedIn: SignedIn = try await Self.verify(
                backend, challenge.challengeId, "135790", name: "  \(name) \n"
            ).decode()
            #expect(signedIn.isNewUser)
            #expect(signedIn.profile?.displayName == name)
            let me: CurrentUser = try await backend.get("/auth/me", token: signedIn.session.accessToken).decode()
            #expect(me.profile?.displayName == name)
        }
    }

    @Test func oneCharacterIsEnoughAndNoneLeavesItAbsent() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let first: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511123456").decode()
            let named: SignedIn = try await Self.verify(backend, first.challengeId, "135790", name: "Z").decode()
            #expect(named.profile?.displayName == "Z")
            let other: SignInChallenge = try await SignInCodeTests.start(backend, email: "new@mail.com").decode()
            let code = try await backend.lastCode(to: "new@mail.com")
            let unnamed: SignedIn = try await Self.verify(backend, other.challengeId, code, name: nil).decode()
            #expect(unnamed.isNewUser)
            #expect(unnamed.profile?.displayName == nil)
        }
    }

    @Test func fiftyOneCharactersOrABlankOneAreRefusedAndTheCodeStaysUsable() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511123456").decode()
            let tooLong = String(repeating: "a", count: DisplayNameRules.maximumLength + 1)
            for name in [tooLong, "   "] {
                let refused = try await Self.verify(backend, challenge.challengeId, "135790", name: name)
                #expect(refused.status == 422)
                #expect(refused.error?.code == "invalid_field")
                #expect(refused.error?.message == "display_name: A display name takes 1 to 50 characters.")
                #expect(refused.error?.errors == ["display_name"])
            }
            let journal: [JournalEntry] = try await backend.get("/_admin/journal").decode()
            #expect(journal.last { $0.path == "/auth/sign-in/code/verify" }?.rule == "signin.display_name_invalid")
            let signedIn: SignedIn = try await Self.verify(backend, challenge.challengeId, "135790", name: nil)
                .decode()
            #expect(signedIn.isNewUser)
        }
    }

    @Test func aLaterSignInThatGivesOneReplacesItAndOneThatDoesNotKeepsIt() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let first: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            let code = try await backend.lastCode(to: "+995511100000")
            let named: SignedIn = try await Self.verify(backend, first.challengeId, code, name: "Jane").decode()
            #expect(!named.isNewUser)
            #expect(named.profile?.displayName == "Jane")
            _ = try await backend.advance(seconds: 30)
            let again: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            let code2 = try await backend.lastCode(to: "+995511100000")
            let kept: SignedIn = try await Self.verify(backend, again.challengeId, code2, name: nil).decode()
            #expect(kept.profile?.displayName == "Jane")
        }
    }
}
