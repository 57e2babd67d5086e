import AccessAPI
import Foundation
import GRDB

/// A row of `sessions`: one live pair of tokens, known by their keyed digests.
struct SessionRecord: Record {
    static let databaseTableName = "sessions"

    var accessHash: String
    var refreshHash: String
    var userId: String
    var accessExpiresAt: Double
    var refreshExpiresAt: Double
    /// Signed out from another device (`SessionListService`): the row stays until its refresh token would have
    /// expired, so the device's next call is answered `session_revoked` rather than a bare 401.
    var revoked = false
    /// The sign-in this session was rotated from: a reused refresh token ends the whole family.
    var familyId: String
    /// The device a sign-in registered (seed 004); nil for QA sessions and an email change's new one.
    var deviceId: String?
    /// Limited after a recovery by email, until a phone is re-verified (seed 003).
    var access: AccessLevel
    /// aal2 once a second factor passed on top of the first (issue 31); aal1 otherwise.
    var assurance: AssuranceLevel = .aal1
}

/// A row of `spent_refresh_tokens`: a rotated refresh token's digest, kept while the token would have lived,
/// so presenting it again is told from an unknown token (reuse detection).
struct SpentRefreshTokenRecord: Record {
    static let databaseTableName = "spent_refresh_tokens"

    var refreshHash: String
    var familyId: String
    var userId: String
    var expiresAt: Double
    var spentAt: Double?
    /// The access digest of the pair the rotation issued, and that pair sealed for the reuse interval
    /// (`RefreshRules.reuseInterval`); the seal is cleared once the interval is over.
    var successorAccessHash: String?
    var successorSealed: Data?
}

/// A row of `reauth_grants`: an open "Verify it's you" window, known by its token's keyed digest, of the
/// sign-in (`familyId`) that earned it.
struct ReauthGrantRecord: Record {
    static let databaseTableName = "reauth_grants"

    var tokenHash: String
    var userId: String
    var method: ReauthMethod
    var expiresAt: Double
    var familyId: String
}
