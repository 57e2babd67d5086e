import AccessAPI
import Foundation
import TerminalKit

/// How the app starts (seeds 002 and 003): with a stored session, a check of it first (a spinner, then
/// straight in, or the sign-in screen if it was refused, or in with the cached data when offline);
/// without one, the Welcome screen.
enum StartFeature: Feature {
    static let screens: [any ScreenModel.Type] = [WelcomeScreen.self, SessionCheckScreen.self]
}

/// The screens a signed-out app stands on: a refused session found there needs no sign-in screen on top.
enum SignedOutRoots {
    static let types: [ScreenType] = [
        ScreenType(WelcomeScreen.self), ScreenType(SignInScreen.self), ScreenType(LoggedOutScreen.self),
        ScreenType(SessionCheckScreen.self), ScreenType(AccountDeletedScreen.self),
    ]

    static func contains(_ screen: AnyScreen) -> Bool { types.contains { screen.is($0) } }
}

// MARK: - Requests

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

/// What the QA shortcut found: the methods, and where onboarding stands.
struct QASignedIn: Equatable, Sendable {
    var methods: AuthMethods
    var profile: Profile?

    /// The profile, or nil when the backend has none to give (one without onboarding answers 404 or 501;
    /// any failure): a QA sign-in must not be stopped by it, and nil is taken as onboarded.
    static func profile(_ client: AccountClient) async -> Profile? { try? await client.profile() }
}
