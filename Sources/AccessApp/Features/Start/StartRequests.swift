import AccessAPI
import Foundation

/// `GET /auth/me`; the client refreshes once on a 401 and signs out if the refresh is refused.
struct CheckSession: APIRequest {
    func perform(_ api: APIContext) async throws -> CurrentUser {
        try await api.client.me(cache: api.cache, now: api.now)
    }
}

/// The reference backend's QA shortcut: signed in as the scenario's user, without the screens.
struct QASignIn: APIRequest {
    func perform(_ api: APIContext) async throws -> QASignedIn {
        try await api.client.adminSignIn()
        let methods = try await api.client.authMethods(cache: api.cache, now: api.now)
        return QASignedIn(methods: methods, profile: await QASignedIn.profile(api.client))
    }
}
