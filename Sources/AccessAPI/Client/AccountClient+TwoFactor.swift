import Foundation

/// Two-factor authentication (issue 31): the app's typed calls, each one operation of the contract.
extension AccountClient {
    /// `GET /me/two-factor`.
    public func twoFactorStatus() async throws -> TwoFactorStatus {
        try await call { try await api.getTwoFactor().ok.body.json }
    }

    /// `POST /me/two-factor/setup` (re-auth token): a new secret, pending until its first code.
    public func startTwoFactorSetup(reauthToken: String?) async throws -> TwoFactorSetup {
        try await call {
            try await api.startTwoFactorSetup(headers: .init(xReauthToken: reauthToken)).created.body.json
        }
    }

    /// `POST /me/two-factor/confirm`: the first code turns two-factor on; the recovery codes, shown once.
    public func confirmTwoFactorSetup(code: String) async throws -> [String] {
        try await call {
            try await api.confirmTwoFactorSetup(body: .json(.init(code: code))).ok.body.json
        }.recoveryCodes
    }

    /// `POST /me/two-factor/recovery-codes` (re-auth token): ten new codes, the old ones dead.
    public func regenerateRecoveryCodes(reauthToken: String?) async throws -> [String] {
        try await call {
            try await api.regenerateRecoveryCodes(headers: .init(xReauthToken: reauthToken)).ok.body.json
        }.recoveryCodes
    }

    /// `DELETE /me/two-factor` (re-auth token).
    public func turnOffTwoFactor(reauthToken: String?) async throws {
        _ = try await call {
            try await api.disableTwoFactor(headers: .init(xReauthToken: reauthToken)).noContent
        }
    }

    /// `POST /auth/two-factor/verify`: the second step; the new tokens (aal2) are kept.
    public func verifySecondFactor(code: String) async throws -> SignedIn {
        try await signingIn { try await api.verifyTwoFactor(body: .json(.init(code: code))).ok.body.json }
    }

    /// `POST /auth/two-factor/recovery`: the second step with a recovery code (spent); the new tokens are kept.
    public func signInWithRecoveryCode(_ recoveryCode: String) async throws -> SignedIn {
        try await signingIn {
            try await api.useRecoveryCode(body: .json(.init(recoveryCode: recoveryCode))).ok.body.json
        }
    }

    /// `POST /auth/reauth/authenticator`: "Verify it's you" with the app's code.
    public func reauthenticate(authenticatorCode: String) async throws -> ReauthGrant {
        try await call { try await api.reauthAuthenticator(body: .json(.init(code: authenticatorCode))).ok.body.json }
    }

    /// `GET /_admin/two-factor/code` (reference backend only): the scenario user's current code.
    public func adminTwoFactorCode(userId: String? = nil) async throws -> TwoFactorCode {
        try await call { try await admin.adminTwoFactorCode(query: .init(userId: userId)).ok.body.json }
    }
}
