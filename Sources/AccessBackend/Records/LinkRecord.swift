import AccessAPI
import GRDB

/// What an emailed link does once opened (`links.purpose`); the outbox names its messages by it too.
enum LinkPurpose: String, Codable, DatabaseValueConvertible, Sendable {
    /// Verify it's you (`LinkService`).
    case reauth
    /// Applies a new address (`EmailService`).
    case emailChange = "email_change"
    /// Adds an address with its password.
    case emailAdd = "email_add"
    /// Puts the old address back, sent to it after a change.
    case emailRevert = "email_revert"
    /// Proves a registered address (`PasswordLoginService`).
    case register
    /// Account recovery by email (`RecoveryService`).
    case recovery
    /// Forgot password? (`PasswordResetService`).
    case passwordReset = "password_reset"
}

/// A row of `links`: a one-shot emailed link, known only by its token's keyed digest.
struct LinkRecord: Record {
    static let databaseTableName = "links"

    var tokenHash: String
    var userId: String
    var purpose: LinkPurpose
    var expiresAt: Double
    /// Opened, or replaced by a newer link of the same kind: it no longer works.
    var used = false
    /// The address it was sent to and acts on (a revert link: the address it restores).
    var email: String? = nil
    /// A revert link: the address that replaced the one it restores.
    var previousEmail: String? = nil
    /// An add link: the password that comes with the address, hashed.
    var passwordHash: String? = nil
    /// Why it stopped working unopened (`OutboxService.endLinks`): `superseded` by a newer link, `cancelled`, or
    /// `expired` when its time had run out first; nil while live or once opened.
    var ended: OutboxStatus? = nil

    /// Neither opened nor replaced, and not past its lifetime at `now`.
    func isLive(at now: Double) -> Bool { !used && expiresAt > now }

    /// The link a token names, if any.
    static func find(_ db: Database, tokenHash: String) throws -> LinkRecord? {
        try fetchOne(db, key: tokenHash)
    }

    /// Opens the link: it never works again.
    static func spend(_ db: Database, tokenHash: String) throws {
        try db.execute(sql: "UPDATE links SET used = 1 WHERE token_hash = ?", arguments: [tokenHash])
    }
}
