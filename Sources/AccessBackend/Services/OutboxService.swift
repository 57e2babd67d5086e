import AccessAPI
import Foundation
import GRDB

/// The fake SMS gateway and mailbox. The only place a code or link is ever readable.
struct OutboxService: Sendable {
    let store: Store

    struct Message {
        var channel: String
        var recipient: String
        var kind: String
        var purpose: String
        var code: String? = nil
        var link: String? = nil
        var token: String? = nil
    }

    static func send(_ db: Database, _ message: Message, now: Date) throws {
        try db.execute(
            sql: """
                INSERT INTO outbox (channel, recipient, kind, purpose, code, link, token, sent_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                message.channel, message.recipient, message.kind, message.purpose, message.code, message.link,
                message.token, now.unix,
            ])
        // Bounded like a real inbox view: QA reads the newest messages, and older ones only hold codes.
        try db.execute(
            sql: "DELETE FROM outbox WHERE id <= ?",
            arguments: [db.lastInsertedRowID - Int64(RetentionService.outboxCapacity)])
    }

    func messages() async throws -> [OutboxMessage] {
        try await store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id").map { row in
                OutboxMessage(
                    id: row["id"], channel: row["channel"], to: row["recipient"], kind: row["kind"],
                    purpose: row["purpose"], code: row["code"], link: row["link"], token: row["token"],
                    sentAt: Date(unix: row["sent_at"]))
            }
        }
    }
}
