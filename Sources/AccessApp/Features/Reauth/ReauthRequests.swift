import AccessAPI

/// The simulated Apple/Google sign-in: the reference backend mints the provider's token, then
/// the app re-authenticates with it.
struct ReauthBySocial: APIRequest {
    var provider: SocialProvider
    func perform(_ api: APIContext) async throws -> ReauthGrant {
        let token = try await api.client.adminProviderToken(provider: provider)
        return try await api.client.reauthSocial(provider: provider, idToken: token.idToken)
    }
}
