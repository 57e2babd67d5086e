import Foundation

/// Access token (1 h) and refresh token (7 days); the refresh token rotates on every use.
public struct SessionTokens: Codable, Sendable, Equatable {
    public var userId: String
    public var accessToken: String
    public var accessExpiresAt: Date
    public var refreshToken: String
    public var refreshExpiresAt: Date

    public init(
        userId: String, accessToken: String, accessExpiresAt: Date, refreshToken: String, refreshExpiresAt: Date
    ) {
        self.userId = userId
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
    }
}

/// `POST /auth/refresh`.
public struct RefreshBody: Codable, Sendable, Equatable {
    public var refreshToken: String

    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}
