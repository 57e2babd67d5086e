import AccessAPI
import Foundation
import Testing

/// Seed 004's display name, as the app's client sends it to the reference backend over HTTP: it arrives
/// with the code (trimmed, kept on the new account), and a refused one comes back naming its field.
@Suite struct DisplayNameClientTests {
    @Test func theNameSentWithTheCodeIsOnTheNewAccount() async throws {
        try await withLiveBackend(scenario: "new-user", signIn: false) { live in
            let challenge = try await live.client.startSignInCode(channel: .phone, phone: "+995511123456")
            let signedIn = try await live.client.verifySignInCode(
                challengeId: challenge.challengeId, code: "135790", displayName: " Jane Doe ")
            #expect(signedIn.isNewUser)
            #expect(signedIn.profile?.displayName == "Jane Doe")
            #expect(try await live.client.getProfile().displayName == "Jane Doe")
        }
    }

    @Test func aNameTooLongIsRefusedNamingItsField() async throws {
        try await withLiveBackend(scenario: "new-user", signIn: false) { live in
            let challenge = try await live.client.startSignInCode(channel: .phone, phone: "+995511123456")
            let error = await apiError {
                try await live.client.verifySignInCode(
                    challengeId: challenge.challengeId, code: "135790", displayName: String(repeating: "a", count: 51))
            }
            #expect(
                error
                    == .invalid(
                        fieldErrors: ["display_name"], message: "display_name: A display name takes 1 to 50 characters."
                    ))
            // Refused before the code was checked: the same code still signs in, without a name.
            let signedIn = try await live.client.verifySignInCode(challengeId: challenge.challengeId, code: "135790")
            #expect(signedIn.profile?.displayName == nil)
        }
    }
}
