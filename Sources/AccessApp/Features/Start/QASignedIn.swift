import AccessAPI

/// What the QA shortcut found: the methods, and where onboarding stands.
public struct QASignedIn: Equatable, Sendable {
    public var methods: AuthMethods
    public var profile: Profile?

    public init(methods: AuthMethods, profile: Profile?) {
        self.methods = methods
        self.profile = profile
    }

    /// The profile, or nil when the backend has none to give (one without onboarding answers 404 or 501;
    /// any failure): a QA sign-in must not be stopped by it, and nil is taken as onboarded.
    static func profile(_ client: AccountClient) async -> Profile? { try? await client.getProfile() }
}
