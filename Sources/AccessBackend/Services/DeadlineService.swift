import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Every moment at which some rule changes its answer, so the admin clock can say what expired or
/// reset while it moved, and jump straight to the next such moment.
struct DeadlineService: Sendable {
    static let longestAdvance = RequestBounds.longestClockAdvance

    let store: Store
    let clock: BackendClock

    func events(after from: Date, upTo to: Date?) async throws -> [DeadlineEvent] {
        let lower = from.unix
        let upper = to?.unix ?? .infinity
        let all = try await store.pool.read { db in
            try Self.all(db) + DeletionService.deadlines(db, after: from, upTo: to)
        }
        return all.filter { $0.at.unix > lower && $0.at.unix <= upper }.sorted { $0.at < $1.at }
    }

    /// Moves the clock and reports what happened on the way.
    /// POST /_admin/clock (Stripe's test clocks): forward to an absolute time, as an advance would, then
    /// freeze or unfreeze. Backwards is refused: every deadline already passed would have to un-happen.
    func set(_ body: ClockSetBody) async throws -> ClockChanged {
        let from = clock.now()
        var events: [DeadlineEvent] = []
        if let target = body.at {
            guard target >= from.addingTimeInterval(-0.999) else {
                throw BackendError(
                    .unprocessableContent, "clock_backwards",
                    "at: the clock only moves forward; it is \((try? ContractDates().encode(from)) ?? "later") now.",
                    rule: .adminClock)
            }
            guard target.timeIntervalSince(from) <= Self.longestAdvance else {
                throw BackendError(
                    .unprocessableContent, "invalid_advance", "at: at most one year ahead.", rule: .adminClock)
            }
            events = try await move(from: from, to: max(target, from)).events
        }
        switch body.frozen {
        case true?: clock.freeze()
        case false?: clock.unfreeze()
        case nil: break
        }
        return ClockChanged(from: from, now: clock.now(), frozen: clock.isFrozen, events: events)
    }

    func advance(_ body: ClockAdvanceBody) async throws -> ClockAdvanced {
        let from = clock.now()
        let target: Date
        switch (body.seconds, body.to) {
        case (let seconds?, nil):
            guard seconds >= 0, seconds <= Self.longestAdvance else {
                throw BackendError(
                    .unprocessableContent, "invalid_advance", "seconds: expected 0 to one year.", rule: .adminClock)
            }
            target = from.addingTimeInterval(seconds)
        case (nil, "next_deadline"):
            guard let next = try await events(after: from, upTo: nil).first else {
                return ClockAdvanced(from: from, now: from, events: [])
            }
            target = next.at
        default:
            throw BackendError(
                .unprocessableContent, "invalid_advance",
                "Send either {\"seconds\": N} or {\"to\": \"next_deadline\"}.",
                rule: .adminClock)
        }
        return try await move(from: from, to: target)
    }

    private func move(from: Date, to target: Date) async throws -> ClockAdvanced {
        let happened = try await events(after: from, upTo: target)
        clock.advance(by: target.timeIntervalSince(from))
        let now = clock.now()
        // A purge that fell due on the way runs now, so what the clock reports has really happened.
        try await store.pool.write { db in try DeletionService.purgeDue(db, now: now) }
        return ClockAdvanced(from: from, now: now, events: happened)
    }

    private static func all(_ db: Database) throws -> [DeadlineEvent] {
        var events: [DeadlineEvent] = []
        func add(_ sql: String, kind: String, arguments: StatementArguments = []) throws {
            for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                events.append(DeadlineEvent(at: Date(unix: row[0]), kind: kind, subject: row[1]))
            }
        }
        try add(
            "SELECT expires_at, id FROM code_challenges WHERE state = ?", kind: "otp_expired",
            arguments: [CodeState.open])
        try add(
            "SELECT MAX(sent_at) + ?, recipient FROM sends GROUP BY recipient", kind: "resend_cooldown_over",
            arguments: [SendLimits.cooldown])
        try add(
            "SELECT sent_at + ?, recipient FROM sends WHERE is_resend = 1", kind: "resend_slot_freed",
            arguments: [SendLimits.resendWindow])
        try add(
            "SELECT sent_at + ?, recipient FROM sends", kind: "daily_slot_freed",
            arguments: [SendLimits.dailyWindow])
        try add(
            "SELECT failed_at + ?, user_id FROM password_failures", kind: "password_slot_freed",
            arguments: [PasswordAttemptRules.window])
        // A grant whose sign-in has ended is over already (`ReauthService.require`).
        try add(
            """
            SELECT expires_at, user_id FROM reauth_grants
            WHERE family_id IN (SELECT family_id FROM sessions WHERE revoked = 0)
            """, kind: "reauth_expired")
        try add("SELECT expires_at, user_id FROM links WHERE used = 0", kind: "link_expired")
        try add("SELECT access_expires_at, user_id FROM sessions WHERE revoked = 0", kind: "access_token_expired")
        try add("SELECT refresh_expires_at, user_id FROM sessions WHERE revoked = 0", kind: "refresh_token_expired")
        return events
    }
}
