import AccessAPI
import AccessCore
import Foundation
import GRDB

/// The backend's event log (issue 49 item 1): what happened to one person, in the words of the decision that
/// made it, for support's timeline (`GET /_admin/timeline`). A service appends its event with `append` inside
/// the write transaction of the decision, so an event exists exactly when its decision was committed. A refusal
/// rolls its transaction back; `recordingRefusals` writes its event in a transaction of its own right after.
/// Never a secret: codes, tokens, passwords and link tokens are not arguments here, and `RedactionTests` walks
/// the table to hold that.
enum EventLog {
    /// Events kept per world; the oldest go as new ones come (docs/reference-backend.md).
    static let capPerWorld: Int64 = 100_000

    /// One event, as a service describes it. Time, client address, and (when the request is signed in) the
    /// sign-in and device come from the request being served.
    struct Event {
        var kind: EventKind
        var userId: String?
        var subject: String? = nil
        var rule: Rule? = nil
        var detail: [String: String] = [:]
        /// The sign-in and device it belongs to, when the caller knows them better than the request does (a
        /// session that is ending, a sign-in that is starting).
        var familyId: String? = nil
        var deviceId: String? = nil
        /// False for what the backend judged on its own (a lifetime or a hold that ran out): the request being
        /// served is someone else's, so its address is not the event's.
        var byRequest = true
    }

    static func append(_ db: Database, _ event: Event, now: Date) throws {
        var familyId = event.familyId
        var deviceId = event.deviceId
        if familyId == nil, let scope = ContractScope.current, let digest = scope.digest,
            let accessHash = SessionService.accessHash(of: scope.request, digest: digest),
            let row = try Row.fetchOne(
                db, sql: "SELECT family_id, device_id FROM sessions WHERE access_hash = ?", arguments: [accessHash])
        {
            familyId = row["family_id"]
            deviceId = deviceId ?? row["device_id"]
        }
        let detail = String(decoding: try JSONEncoder.sorted.encode(event.detail), as: UTF8.self)
        let record = EventRecord(
            at: now.unix, kind: event.kind.rawValue, userId: event.userId, subject: event.subject,
            rule: event.rule?.rawValue, familyId: familyId, deviceId: deviceId,
            clientAddress: event.byRequest ? ContractScope.current?.remoteAddress : nil, detail: detail)
        try record.insert(db)
        let newest = db.lastInsertedRowID
        if newest > capPerWorld {
            try db.execute(sql: "DELETE FROM events WHERE id <= ?", arguments: [newest - capPerWorld])
        }
    }

    /// The account a phone number or email address belongs to, for an event about an address.
    static func owner(_ db: Database, of address: String) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT id FROM users WHERE phone = ? OR email = ? COLLATE NOCASE LIMIT 1",
            arguments: [address, address])
    }

    /// Runs `body` (one write transaction); when it throws a refusal this log records (`refusalKind`), the
    /// refusal's event is written in a transaction of its own and the error goes on.
    static func recordingRefusals<T>(
        _ store: Store, now: Date, userId: String?, subject: String?, _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch let error as BackendError {
            let rule = error.rule
            guard let kind = refusalKind(rule) else { throw error }
            // The refusal's words, as the person was shown them.
            var detail: [String: String] = ["code": error.detail.code.rawValue, "message": error.detail.message]
            if let retryAfter = error.detail.retryAfter { detail["retry_after"] = "\(retryAfter)" }
            if let limit = error.detail.limit { detail["limit"] = limit.rawValue }
            let event = detail
            // A send a limit refused is also an outbox row of its own, in the same transaction as its event.
            // (No closure over `error` here: the compiler crashes on one in this function.)
            var refusal: OutboxService.Refused? = nil
            if let send = error.refusedSend {
                let retryAt = error.detail.retryAfter.map { now.addingTimeInterval(TimeInterval($0)) }
                refusal = OutboxService.Refused(
                    send: send, limit: error.detail.limit, message: error.detail.message, retryAt: retryAt)
            }
            let refused = refusal
            let about = subject ?? refused?.send.recipient
            try? await store.pool.write { db in
                let account = try userId ?? about.flatMap { try Self.owner(db, of: $0) }
                try append(
                    db, Event(kind: kind, userId: account, subject: about, rule: rule, detail: event),
                    now: now)
                if let refused { try OutboxService.keepRefused(db, refused, now: now) }
            }
            throw error
        }
    }

    /// The refusals a person sees and support asks about: the send limits, an expired code, a refused sign-in.
    static func refusalKind(_ rule: Rule) -> EventKind? {
        if rule.rawValue.hasPrefix("rate_limit.") || rule == .recoveryCooldown || rule == .recoveryDailyCap {
            return rule == .rateLimitLoginLockout || rule == .rateLimitPasswordAttempts
                || rule == .rateLimitTwoFactorAttempts ? .signInRefused : .sendRefused
        }
        switch rule {
        case .otpExpired: return .codeExpired
        case .linkExpired, .linkSuperseded, .recoveryLinkExpired: return .linkExpired
        case .loginCredentialsInvalid, .loginEmailUnverified, .loginLocked: return .signInRefused
        default: return nil
        }
    }

    /// The newest `limit` events of one person, oldest first: those of the account and those about its phone
    /// number and email address (a sign-in code sent before the account existed, a refused send).
    static func timeline(
        _ db: Database, userId: String?, addresses: [String], since: Date?, kinds: [String]?, limit: Int
    ) throws -> [EventRecord] {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        var who: [String] = []
        if let userId {
            who.append("user_id = ?")
            arguments.append(userId)
        }
        for address in addresses {
            who.append("subject = ? COLLATE NOCASE")
            arguments.append(address)
        }
        guard !who.isEmpty else { return [] }
        conditions.append("(" + who.joined(separator: " OR ") + ")")
        if let since {
            conditions.append("at >= ?")
            arguments.append(since.unix)
        }
        if let kinds {
            conditions.append("kind IN (" + kinds.map { _ in "?" }.joined(separator: ", ") + ")")
            arguments.append(contentsOf: kinds)
        }
        let newest = try EventRecord.fetchAll(
            db,
            sql:
                "SELECT * FROM events WHERE \(conditions.joined(separator: " AND ")) ORDER BY at DESC, id DESC LIMIT ?",
            arguments: StatementArguments(arguments + [limit]))
        return newest.reversed()
    }
}

extension JSONEncoder {
    /// Keys in order, so an event's detail reads the same every time.
    fileprivate static let sorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}
