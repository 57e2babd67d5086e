import AccessAPI

/// The Account access hub.
enum HubFeature: Feature {
    static let screens: [any ScreenModel.Type] = [HubScreen.self]
}

/// The user's sign-in methods, through the offline cache when the backend is away.
struct LoadAuthMethods: APIRequest {
    func perform(_ api: APIContext) async throws -> AuthMethods {
        try await api.client.authMethods(cache: api.cache, now: api.now)
    }
}
