import AccessAPI
import Foundation
import GRDB

/// The fake SMS gateway and mailbox. The only place a code or link is ever readable.
struct OutboxService: Sendable {
    let store: Store
    let clock: BackendClock

    struct Message {
        var channel: String
        var recipient: String
        var kind: String
        var purpose: String
        var code: String? = nil
        var link: String? = nil
        var token: String? = nil
        /// The code request a texted code belongs to: what tells later whether the code still works.
        var requestId: String? = nil
    }

    static func send(_ db: Database, _ message: Message, now: Date) throws {
        try db.execute(
            sql: """
                INSERT INTO outbox (channel, recipient, kind, purpose, code, link, token, sent_at, request_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                message.channel, message.recipient, message.kind, message.purpose, message.code, message.link,
                message.token, now.unix, message.requestId,
            ])
        // Bounded like a real inbox view: QA reads the newest messages, and older ones only hold codes.
        try db.execute(
            sql: "DELETE FROM outbox WHERE id <= ?",
            arguments: [db.lastInsertedRowID - Int64(RetentionService.outboxCapacity)])
    }

    /// Every message, oldest first, each with whether its code or link still works on the backend's clock now.
    func messages() async throws -> [OutboxMessage] {
        let now = clock.now()
        return try await store.pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT outbox.*,
                        COALESCE(otp_requests.user_id, CASE WHEN sign_in_challenges.id IS NOT NULL THEN '' END)
                            AS request_user,
                        COALESCE(otp_requests.state, sign_in_challenges.state) AS request_state,
                        COALESCE(otp_requests.expires_at, sign_in_challenges.expires_at) AS request_expires_at
                    FROM outbox LEFT JOIN otp_requests ON otp_requests.id = outbox.request_id
                        LEFT JOIN sign_in_challenges ON sign_in_challenges.id = outbox.request_id
                    ORDER BY outbox.id
                    """)
            var judge = StatusJudge(now: now)
            let statuses = try rows.reversed().map { row in try judge.status(of: row, db, digest: store.digest) }
            return zip(rows, statuses.reversed()).map { row, status in
                OutboxMessage(
                    id: row["id"], channel: row["channel"], to: row["recipient"], kind: row["kind"],
                    purpose: row["purpose"], code: row["code"], link: row["link"], token: row["token"],
                    sentAt: Date(unix: row["sent_at"]), status: status)
            }
        }
    }

    /// Reads the messages newest first, so it knows for each code whether a newer one followed it.
    /// The rules are the ones verify-otp and the link confirmation apply (OTPService, LinkService).
    private struct StatusJudge {
        let now: Date
        /// Code requests that already have a newer message: an older one's code was replaced by a resend.
        var resentRequests: Set<String> = []
        /// A user's numbers that already have a newer code: a new request cancels the older one's.
        var textedNumbers: Set<String> = []

        init(now: Date) { self.now = now }

        mutating func status(of row: Row, _ db: Database, digest: TokenDigest) throws -> OutboxStatus {
            switch OutboxKind(rawValue: row["kind"]) {
            case .otp: return codeStatus(row)
            case .reauthLink, .emailVerifyLink, .emailChangedNotice, .recoveryLink:
                return try linkStatus(row, db, digest: digest)
            // A notice carries nothing to use, so nothing about it can stop working.
            case .passwordChangedNotice, .providerConnectedNotice, .providerDisconnectedNotice, .accountDeletedNotice,
                .recoveryStartedNotice, .recoveryCompletedNotice, .lockoutNotice, .newDeviceNotice:
                return .live
            case nil: return .expired
            }
        }

        private mutating func codeStatus(_ row: Row) -> OutboxStatus {
            // The backend keeps a code request a day past its expiry, so one that is gone has expired.
            // (Codes sent before messages recorded their request read as expired too: nothing tells.)
            guard let requestId: String = row["request_id"], let user: String = row["request_user"],
                let state: String = row["request_state"], let expiresAt: Double = row["request_expires_at"]
            else { return .expired }
            let number = "\(user) \(row["recipient"] as String)"
            let resent = !resentRequests.insert(requestId).inserted
            let newerCodeSent = !textedNumbers.insert(number).inserted
            if resent { return .superseded }
            if state == "used" { return .used }
            if newerCodeSent { return .superseded }
            switch state {
            case "cancelled": return .cancelled
            case "superseded": return .superseded
            case "dead": return .exhausted
            default: return expiresAt <= now.unix ? .expired : .live
            }
        }

        private func linkStatus(_ row: Row, _ db: Database, digest: TokenDigest) throws -> OutboxStatus {
            guard let token: String = row["token"],
                let link = try Row.fetchOne(
                    db, sql: "SELECT used, expires_at FROM links WHERE token_hash = ?", arguments: [digest(token)])
            else { return .expired }
            if link["used"] as Bool { return .used }
            return (link["expires_at"] as Double) <= now.unix ? .expired : .live
        }
    }
}
