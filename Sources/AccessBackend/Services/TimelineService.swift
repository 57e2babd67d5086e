import AccessAPI
import AccessCore
import Foundation
import GRDB

/// `GET /_admin/timeline` (issue 49 item 2): one person's events (`EventLog`), found by account id, phone
/// number or email address, for support.
struct TimelineService: Sendable {
    let store: Store

    /// What a timeline answers at most, and without a limit.
    static let maxLimit = 10_000
    static let defaultLimit = 200
    /// The contract's maxLength for `user`: the longest email address.
    static let longestUser = 320

    func timeline(user: String, since: String?, kinds: String?, limit: Int?) async throws -> Timeline {
        let sinceDate = try since.map(Self.parseTime)
        let kindList = try kinds.map(Self.parseKinds)
        guard !user.isEmpty, user.count <= Self.longestUser else {
            throw Self.invalid("user: an account id, a phone number or an email address (at most 320 characters)")
        }
        let limit = limit ?? Self.defaultLimit
        guard (1...Self.maxLimit).contains(limit) else {
            throw Self.invalid("limit: a whole number from 1 to \(Self.maxLimit)")
        }
        return try await store.pool.read { db in
            let (userId, addresses) = try Self.resolve(db, user)
            let events = try EventLog.timeline(
                db, userId: userId, addresses: addresses, since: sinceDate, kinds: kindList, limit: limit)
            return Timeline(userId: userId, events: events.map(Self.wire))
        }
    }

    /// An account id, else a phone number or an email address: the account it names (deleted ones too, by id)
    /// and the addresses whose events are the person's.
    static func resolve(_ db: Database, _ user: String) throws -> (String?, [String]) {
        let typed = user.trimmingCharacters(in: .whitespaces)
        if typed.hasPrefix("usr_") {
            // A purged account has no row left, and its events are still its own.
            let found = try UserRecord.fetchOne(db, key: typed)
            return (typed, [found?.phone, found?.email].compactMap { $0 })
        }
        let address =
            typed.contains("@") ? EmailRules.normalized(typed) : PhoneNumberRules.normalizeE164(typed) ?? typed
        let owner = try UserRecord.filter(sql: "phone = ? OR email = ? COLLATE NOCASE", arguments: [address, address])
            .fetchOne(db)
        var addresses = [address]
        for other in [owner?.phone, owner?.email].compactMap({ $0 }) where !addresses.contains(other) {
            addresses.append(other)
        }
        return (owner?.id, addresses)
    }

    static func parseTime(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        throw invalid("since: an ISO 8601 time such as 2026-11-29T10:00:00Z")
    }

    static func parseKinds(_ text: String) throws -> [String] {
        let kinds = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for kind in kinds where EventKind(rawValue: kind) == nil {
            throw invalid("kinds: \(kind) is no event kind")
        }
        return kinds
    }

    private static func invalid(_ message: String) -> BackendError {
        BackendError(.unprocessableContent, "invalid_parameter", message, rule: .httpInvalidParameter)
    }

    static func wire(_ record: EventRecord) -> TimelineEvent {
        TimelineEvent(
            id: Int(record.id ?? 0), at: Date(unix: record.at), kind: record.kind, userId: record.userId,
            subject: record.subject, rule: record.rule, sessionId: record.familyId, deviceId: record.deviceId,
            clientAddress: record.clientAddress, detail: .init(additionalProperties: record.details))
    }
}
