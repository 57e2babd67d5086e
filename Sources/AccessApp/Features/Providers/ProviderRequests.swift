import AccessAPI

/// The simulated provider's sign-in for the chosen account, then the link: one request, so the
/// provider's id token never sits in the app's state or its replies.
struct ConnectProviderAccount: APIRequest {
    var provider: SocialProvider
    var subject: String
    func perform(_ api: APIContext) async throws -> AuthMethods {
        let token = try await api.client.adminProviderToken(provider: provider, subject: subject)
        return try await api.client.connectProvider(provider: provider, idToken: token.idToken)
    }
}

/// Apple or Google with an ID token the person pasted (a backend without the simulated provider).
struct SignInWithProviderToken: APIRequest {
    var provider: SocialProvider
    var idToken: Secret
    func perform(_ api: APIContext) async throws -> SignedIn {
        try await api.client.signIn(provider: provider, idToken: idToken.value)
    }
}
