import Foundation

public enum ReauthMethod: String, Codable, Sendable, CaseIterable {
    case password
    case phone
    case email
    case apple
    case google
}

public enum SocialProvider: String, Codable, Sendable, CaseIterable {
    case apple
    case google
}

/// A re-auth token, sent back as `X-Reauth-Token` on sensitive calls until `expiresAt` (15 min).
public struct ReauthGrant: Codable, Sendable, Equatable {
    public var reauthToken: String
    public var expiresAt: Date
    public var method: ReauthMethod

    public init(reauthToken: String, expiresAt: Date, method: ReauthMethod) {
        self.reauthToken = reauthToken
        self.expiresAt = expiresAt
        self.method = method
    }
}

/// `POST /auth/reauth/password`.
public struct PasswordReauthBody: Codable, Sendable, Equatable {
    public var password: String

    public init(password: String) {
        self.password = password
    }
}

/// 202 from `POST /auth/reauth/email`: a one-shot link went to the user's email.
public struct EmailLinkSent: Codable, Sendable, Equatable {
    public var sentTo: String
    public var expiresAt: Date

    public init(sentTo: String, expiresAt: Date) {
        self.sentTo = sentTo
        self.expiresAt = expiresAt
    }
}

/// `POST /auth/reauth/email/confirm`: the token from the link.
public struct EmailLinkConfirmBody: Codable, Sendable, Equatable {
    public var token: String

    public init(token: String) {
        self.token = token
    }
}

/// `POST /auth/reauth/social`: an id token from the (simulated) provider.
public struct SocialReauthBody: Codable, Sendable, Equatable {
    public var provider: SocialProvider
    public var idToken: String

    public init(provider: SocialProvider, idToken: String) {
        self.provider = provider
        self.idToken = idToken
    }
}
