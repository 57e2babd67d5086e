import AccessAPI
import Foundation

/// Keeps the new session in the client (and its file) before the app lands.
struct VerifySignInCode: APIRequest {
    var challengeId: String
    var code: String
    /// Seed 004's display name, typed on the screen before; nil when left blank.
    var displayName: String?
    func perform(_ api: APIContext) async throws -> SignedIn {
        try await api.client.verifySignInCode(challengeId: challengeId, code: code, displayName: displayName)
    }
}

/// The simulated provider's sheet hands back an id token for the chosen account; it signs in.
struct SignInWithProviderAccount: APIRequest {
    var provider: SocialProvider
    var subject: String
    func perform(_ api: APIContext) async throws -> SignedIn {
        let token = try await api.client.adminProviderToken(provider: provider, subject: subject)
        return try await api.client.signIn(provider: provider, idToken: token.idToken)
    }
}
