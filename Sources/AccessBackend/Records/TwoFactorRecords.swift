import AccessAPI
import Foundation
import GRDB

/// A row of `two_factor`: an account's authenticator (issue 31), there exactly while
/// `users.two_factor_enabled_at` is set.
struct TwoFactorRecord: Record {
    static let databaseTableName = "two_factor"

    var userId: String
    /// The TOTP secret under the store's key (`Store.twoFactorSealer`): the backend must read it back to
    /// check a code, so it is sealed rather than hashed.
    var secretSealed: Data
    /// The step of the last code accepted: that code, and any older one, is refused from then on (RFC 6238
    /// §5.2), so a code seen over someone's shoulder is worth nothing once used.
    var lastStep: Int64?
    /// Wrong authenticator or recovery codes in a row, across every session and re-auth of the account.
    var wrongAttempts: Int
    var lockedUntil: Double?
}

/// A row of `two_factor_setups`: a secret shown once, waiting for its first code.
struct TwoFactorSetupRecord: Record {
    static let databaseTableName = "two_factor_setups"

    var userId: String
    var secretSealed: Data
    var expiresAt: Double
    var wrongAttempts: Int
}

/// A row of `recovery_codes`: one code's keyed digest (`TwoFactorService.digest`), spent when `usedAt` is set.
struct RecoveryCodeRecord: Record {
    static let databaseTableName = "recovery_codes"

    var codeHash: String
    var userId: String
    var usedAt: Double?
}

extension AssuranceLevel: DatabaseValueConvertible {}
