import AccessAPI
import AccessCore
import Foundation
import GRDB

/// The fake SMS gateway and mailbox. The only place a code or link is ever readable: through the admin
/// API, which unseals them; in the database they are sealed with the store's key (`StoreKey`).
struct OutboxService: Sendable {
    let store: Store
    let clock: BackendClock

    /// A message that carries nothing to use (a notice).
    struct Notice {
        var channel: OutboxChannel
        var recipient: String
        var kind: OutboxKind
        var purpose: String
    }

    /// A message with a code, or a link and its token.
    struct Message {
        var channel: OutboxChannel
        var recipient: String
        var kind: OutboxKind
        var purpose: String
        var code: String? = nil
        var link: String? = nil
        var token: String? = nil
        /// The code request a texted code belongs to: what tells later whether the code still works.
        var requestId: String? = nil
        /// The link's token digest (`store.digest(token)`): what finds the message when its link stops working.
        var tokenHash: String? = nil
        /// The account it is sent for, for the event log, when the recipient is not (yet) its address: an email
        /// change's link goes to the new address. Nil: the recipient's owner, if any.
        var userId: String? = nil
    }

    /// What a message's `sealed` column holds once opened.
    struct Secrets: Codable {
        var code: String?
        var link: String?
        var token: String?

        func sealed(with sealer: Sealer) throws -> Data {
            try sealer.seal(JSONEncoder().encode(self))
        }

        init(code: String?, link: String?, token: String?) {
            self.code = code
            self.link = link
            self.token = token
        }

        /// Empty for a notice, and for a blob the key does not open (the key file of another database).
        init(sealed: Data?, sealer: Sealer) {
            let opened = sealed.flatMap(sealer.open).flatMap { try? JSONDecoder().decode(Secrets.self, from: $0) }
            self = opened ?? Secrets(code: nil, link: nil, token: nil)
        }
    }

    /// A send a limit refused (`RateLimitService.RefusedSend`, carried on its 429), for `keepRefused`.
    struct Refused: Sendable {
        var send: RateLimitService.RefusedSend
        var limit: RateLimitKind?
        /// The 429's message.
        var message: String
        var retryAt: Date?
    }

    /// A refused send as a row of its own (kind `send_refused`): what was asked for, to whom, which limit and until
    /// when. Written after the refusal decision, by `EventLog.recordingRefusals` in the transaction of the refusal's
    /// event; nothing went out, so it holds no code or link. Its event is that one (`send_refused`).
    static func keepRefused(_ db: Database, _ refused: Refused, now: Date) throws {
        let channel: OutboxChannel = refused.send.channel == .sms ? .sms : .email
        try OutboxRecord(
            channel: channel, recipient: refused.send.recipient, kind: .sendRefused, purpose: refused.send.purpose,
            sealed: nil, sentAt: now.unix, refusedLimit: refused.limit?.rawValue, retryAt: refused.retryAt?.unix,
            refusal: refused.message
        ).insert(db)
        try keepWithinCapacity(db, newest: db.lastInsertedRowID)
    }

    static func send(_ db: Database, _ notice: Notice, now: Date) throws {
        try insert(
            db, channel: notice.channel, recipient: notice.recipient, kind: notice.kind, purpose: notice.purpose,
            sealed: nil, requestId: nil, tokenHash: nil, userId: nil, now: now)
    }

    static func send(_ db: Database, _ message: Message, sealedWith sealer: Sealer, now: Date) throws {
        let secrets = Secrets(code: message.code, link: message.link, token: message.token)
        try insert(
            db, channel: message.channel, recipient: message.recipient, kind: message.kind, purpose: message.purpose,
            sealed: try secrets.sealed(with: sealer), requestId: message.requestId, tokenHash: message.tokenHash,
            userId: message.userId, now: now)
    }

    private static func insert(
        _ db: Database, channel: OutboxChannel, recipient: String, kind: OutboxKind, purpose: String, sealed: Data?,
        requestId: String?, tokenHash: String?, userId: String?, now: Date
    ) throws {
        try OutboxRecord(
            channel: channel, recipient: recipient, kind: kind, purpose: purpose, sealed: sealed, sentAt: now.unix,
            requestId: requestId, tokenHash: tokenHash
        ).insert(db)
        // Read before the event is appended: after it, the last inserted row is the event's.
        let messageId = db.lastInsertedRowID
        // A notice that carries a link (an email change's, with the way back) counts as the link it carries.
        let event: EventKind = kind == .otp ? .codeSent : tokenHash != nil ? .linkSent : .noticeSent
        try EventLog.append(
            db,
            .init(
                kind: event, userId: try userId ?? EventLog.owner(db, of: recipient), subject: recipient,
                detail: ["channel": channel.rawValue, "message": kind.rawValue, "purpose": purpose]),
            now: now)
        try keepWithinCapacity(db, newest: messageId)
    }

    /// Bounded like a real inbox view: QA reads the newest messages, and older ones only hold codes. `newest`: the
    /// message's own id (the event log's rows count apart).
    private static func keepWithinCapacity(_ db: Database, newest: Int64) throws {
        try db.execute(
            sql: "DELETE FROM outbox WHERE id <= ?", arguments: [newest - Int64(RetentionService.outboxCapacity)])
    }

    // MARK: - What became of a message (issue 28 item 4)
    //
    // A code request is reused by a resend and a link's `used` flag is also set when a newer link replaces it,
    // so the current state of either cannot tell later what happened to an older message. The moment that
    // state is about to be overwritten, the message's outcome is written on it (`outbox.outcome`) and kept.

    /// A code request is about to be reused by a resend or replaced by a new request: its messages keep what
    /// became of them. A code killed by 5 wrong tries stays `exhausted`, one past its 5 minutes `expired`,
    /// a live one `superseded`.
    static func endCode(_ db: Database, request: String, state: CodeState, expiresAt: Double, now: Date) throws {
        let outcome: OutboxStatus =
            switch state {
            case .dead: .exhausted
            case .used: .used
            case .cancelled: .cancelled
            case .open, .superseded: expiresAt <= now.unix ? .expired : .superseded
            }
        try OutboxRecord.filter(sql: "request_id = ? AND outcome IS NULL", arguments: [request])
            .updateAll(db, Column("outcome").set(to: outcome))
    }

    /// Links that stop working unopened (`filter` over `links`, a newer link sent, the account deleted): each
    /// one's message says `outcome`, or `expired` when its time had already run out, rather than `used`;
    /// then the links are spent, each noting why (`links.ended`).
    static func endLinks(
        _ db: Database, where filter: String, _ arguments: StatementArguments, as outcome: OutboxStatus, now: Date
    ) throws {
        for var link in try LinkRecord.filter(sql: "used = 0 AND (\(filter))", arguments: arguments).fetchAll(db) {
            let ended: OutboxStatus = link.expiresAt <= now.unix ? .expired : outcome
            try OutboxRecord.filter(sql: "token_hash = ? AND outcome IS NULL", arguments: [link.tokenHash])
                .updateAll(db, Column("outcome").set(to: ended))
            link.used = true
            link.ended = ended
            try link.update(db)
        }
    }

    /// A spent or timed-out link opened: one a newer link replaced says so and that another can be asked
    /// for (issue 28 item 3); any other is `expired`, the refusal of its own service.
    static func refusal(linkEnded ended: OutboxStatus?, else expired: BackendError) -> BackendError {
        guard ended == .superseded else { return expired }
        return BackendError(
            .gone, "link_superseded", "A newer link was sent. Open the newest one, or request another.",
            rule: .linkSuperseded)
    }

    /// Every message, oldest first, each with whether its code or link still works on the backend's clock now.
    func messages() async throws -> [OutboxMessage] {
        let now = clock.now()
        return try await store.pool.read { db in
            let rows = try Listed.fetchAll(
                db,
                sql: """
                    SELECT outbox.*, code_challenges.state AS request_state,
                        code_challenges.expires_at AS request_expires_at
                    FROM outbox LEFT JOIN code_challenges ON code_challenges.id = outbox.request_id
                    ORDER BY outbox.id
                    """)
            let secrets = rows.map { Secrets(sealed: $0.sealed, sealer: store.outboxSealer) }
            let judge = StatusJudge(now: now)
            let statuses = try zip(rows, secrets).map { row, secrets in
                try judge.status(of: row, token: secrets.token, db, digest: store.digest)
            }
            return zip(zip(rows, secrets), statuses).map { message, status in
                let (row, secrets) = message
                let said = Self.said(row, secrets)
                return OutboxMessage(
                    id: Int(row.id), channel: row.channel, to: row.recipient, kind: row.kind, purpose: row.purpose,
                    code: secrets.code, link: secrets.link, token: secrets.token, sentAt: Date(unix: row.sentAt),
                    status: status, text: said.text, subject: said.subject,
                    limit: row.refusedLimit.flatMap(RateLimitKind.init(rawValue:)),
                    retryAt: row.retryAt.map(Date.init(unix:)))
            }
        }
    }

    /// What the customer got (`OutboxWording`); for a refused send, the 429's message.
    private static func said(_ row: Listed, _ secrets: Secrets) -> OutboxWording.Said {
        guard let kind = OutboxKind(rawValue: row.kind), let channel = OutboxChannel(rawValue: row.channel),
            let said = OutboxWording.said(
                kind: kind, channel: channel, purpose: row.purpose, code: secrets.code, link: secrets.link)
        else { return OutboxWording.Said(subject: nil, text: row.refusal ?? "") }
        return said
    }

    /// A message as the outbox lists it, with where the code request a texted code belongs to stands. Channel
    /// and kind as stored: one the contract cannot describe is the admin API's 500, not a decoding failure.
    private struct Listed: Decodable, FetchableRecord {
        static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }

        var id: Int64
        var channel: String
        var recipient: String
        var kind: String
        var purpose: String
        var sealed: Data?
        var sentAt: Double
        var requestId: String?
        /// What ended its code or link, written when it happened (`endCode`, `endLinks`).
        var outcome: OutboxStatus?
        var requestState: CodeState?
        var requestExpiresAt: Double?
        var refusedLimit: String?
        var retryAt: Double?
        var refusal: String?
    }

    /// A message's recorded outcome when something ended it; otherwise its code or link as it stands, by the
    /// rules verify-otp and the link confirmation apply (OTPService, LinkService).
    private struct StatusJudge {
        let now: Date

        func status(of row: Listed, token: String?, _ db: Database, digest: TokenDigest) throws -> OutboxStatus {
            if let recorded = row.outcome { return recorded }
            switch OutboxKind(rawValue: row.kind) {
            case .otp: return codeStatus(row)
            case .reauthLink, .emailVerifyLink, .emailChangedNotice, .recoveryLink, .passwordResetLink:
                return try linkStatus(token: token, db, digest: digest)
            // A notice carries nothing to use, so nothing about it can stop working.
            case .passwordChangedNotice, .providerConnectedNotice, .providerDisconnectedNotice, .accountDeletedNotice,
                .recoveryStartedNotice, .recoveryCompletedNotice, .lockoutNotice, .newDeviceNotice,
                .sessionSignedOutNotice, .twoFactorEnabledNotice, .twoFactorDisabledNotice, .recoveryCodeUsedNotice,
                .passkeyAddedNotice, .passkeyRemovedNotice, .passkeyClonedNotice,
                // Nothing went out: nothing in it can stop working.
                .sendRefused:
                return .live
            case nil: return .expired
            }
        }

        /// The newest message of its request (an older one has its outcome recorded): the request's state.
        private func codeStatus(_ row: Listed) -> OutboxStatus {
            // The backend keeps a code request a day past its expiry, so one that is gone has expired.
            // (Codes sent before messages recorded their request read as expired too: nothing tells.)
            guard let state = row.requestState, let expiresAt = row.requestExpiresAt else { return .expired }
            switch state {
            case .used: return .used
            case .cancelled: return .cancelled
            case .superseded: return .superseded
            case .dead: return .exhausted
            case .open: return expiresAt <= now.unix ? .expired : .live
            }
        }

        private func linkStatus(token: String?, _ db: Database, digest: TokenDigest) throws -> OutboxStatus {
            guard let token, let link = try LinkRecord.find(db, tokenHash: digest(token)) else { return .expired }
            if link.used { return .used }
            return link.expiresAt <= now.unix ? .expired : .live
        }
    }
}
