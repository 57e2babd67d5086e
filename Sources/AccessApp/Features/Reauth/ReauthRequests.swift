import AccessAPI

struct ReauthByPassword: APIRequest {
    var password: Secret
    func perform(_ api: APIContext) async throws -> ReauthGrant {
        try await api.client.reauthPassword(password: password.value)
    }
}

struct SendReauthLink: APIRequest {
    func perform(_ api: APIContext) async throws -> EmailLinkSent { try await api.client.reauthEmailSend() }
}

struct ConfirmReauthLink: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> ReauthGrant {
        try await api.client.reauthEmailConfirm(token: token)
    }
}

/// The simulated Apple/Google sign-in: the reference backend mints the provider's token, then
/// the app re-authenticates with it.
struct ReauthBySocial: APIRequest {
    var provider: SocialProvider
    func perform(_ api: APIContext) async throws -> ReauthGrant {
        let token = try await api.client.adminProviderToken(provider: provider)
        return try await api.client.reauthSocial(provider: provider, idToken: token.idToken)
    }
}
