import AccessAPI
import Foundation
import GRDB

/// A row of `outbox`: a text or an email the fake gateway "sent". Its code, link and token are sealed with
/// the store's key (`OutboxService.Secrets`); the plain `code`, `link` and `token` columns of databases from
/// before stay empty.
struct OutboxRecord: Record {
    static let databaseTableName = "outbox"

    var id: Int64? = nil
    var channel: OutboxChannel
    var recipient: String
    var kind: OutboxKind
    var purpose: String
    var sealed: Data?
    var sentAt: Double
    /// The code request a texted code belongs to: what tells later whether the code still works.
    var requestId: String?
    /// A link's token digest: what finds the message when its link stops working (`OutboxService.endLinks`).
    var tokenHash: String? = nil
    /// What ended its code or link, written the moment it happened (`OutboxService.endCode`, `endLinks`); nil
    /// while the code's request or the link as it stands still tells.
    var outcome: OutboxStatus? = nil
    /// A refused send (`send_refused`): the limit that refused it, when it lets a send through again, and the
    /// 429's message (`OutboxService.keepRefused`).
    var refusedLimit: String? = nil
    var retryAt: Double? = nil
    var refusal: String? = nil
}
