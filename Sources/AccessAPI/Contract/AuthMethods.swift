import Foundation

public enum UserRole: String, Codable, Sendable, CaseIterable {
    case athlete
    case coach
}

/// `GET /me/auth-methods`: what the Account Access hub shows.
public struct AuthMethods: Codable, Sendable, Equatable {
    public var userId: String
    public var role: UserRole
    /// E.164, e.g. `+995511100000`.
    public var phone: String?
    public var email: String?
    public var hasPassword: Bool
    public var appleLinked: Bool
    public var googleLinked: Bool
    public var passwordChangedAt: Date?

    public init(
        userId: String, role: UserRole, phone: String?, email: String?, hasPassword: Bool, appleLinked: Bool,
        googleLinked: Bool, passwordChangedAt: Date?
    ) {
        self.userId = userId
        self.role = role
        self.phone = phone
        self.email = email
        self.hasPassword = hasPassword
        self.appleLinked = appleLinked
        self.googleLinked = googleLinked
        self.passwordChangedAt = passwordChangedAt
    }
}

public struct HealthStatus: Codable, Sendable, Equatable {
    public var status: String

    public init(status: String = "ok") {
        self.status = status
    }
}

/// `POST /me/auth-methods/disconnect`.
public struct DisconnectBody: Codable, Sendable, Equatable {
    public var provider: SocialProvider

    public init(provider: SocialProvider) {
        self.provider = provider
    }
}
