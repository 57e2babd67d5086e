import AccessAPI
import Foundation

struct StartSignInCode: APIRequest {
    var channel: SignInChannel
    var destination: String
    func perform(_ api: APIContext) async throws -> SignInChallenge {
        switch channel {
        case .phone: return try await api.client.startSignInCode(channel: .phone, phone: destination)
        case .email: return try await api.client.startSignInCode(channel: .email, email: destination)
        }
    }
}

struct ResendSignInCode: APIRequest {
    var challengeId: String
    func perform(_ api: APIContext) async throws -> SignInChallenge {
        try await api.client.resendSignInCode(challengeId: challengeId)
    }
}

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
