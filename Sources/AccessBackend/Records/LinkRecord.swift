import AccessAPI
import AccessCore
import GRDB

// A link's kind is stored as its wire spelling (`links.purpose`), as the outbox names its messages by it.
extension EmailLink: Codable, DatabaseValueConvertible {}

/// A row of `links`: an emailed link (`LinkService`), known only by its token's keyed digest.
struct LinkRecord: Record {
    static let databaseTableName = "links"

    var tokenHash: String
    var userId: String
    /// Its kind, whose rules (`EmailLink.rules`) say how long it lives and what a new one ends.
    var purpose: EmailLink
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
