import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Deleting the account (seeds 000/001): blockers are checked before re-auth and again inside the delete;
/// the delete signs out everywhere, revokes the provider links, holds the phone and email for 7 days and
/// schedules the purge of everything else 30 days on, which runs for real when the clock gets there.
struct DeletionService: Sendable {

    let store: Store
    let clock: BackendClock

    func preflight(user: UserRecord) async throws -> DeletePreflight {
        let now = clock.now()
        return try await store.pool.read { db in
            let blockers = try Self.blockers(db, userId: user.id, now: now)
            // Not kept: a clear account shows a blocker, a blocked one none.
            if blockers.isEmpty, !RulePolicy.current.enforces(.deletePreflightClear) {
                return DeletePreflight(blockers: [DeleteBlocker(kind: .init(.upcomingBookings), items: [])])
            }
            guard RulePolicy.current.enforces(.deletePreflightBlocked) else { return DeletePreflight(blockers: []) }
            return DeletePreflight(blockers: blockers)
        }
    }

    func delete(user: UserRecord, reauth: ReauthProof) async throws -> AccountDeleted {
        let now = clock.now()
        let deleted = AccountDeleted(
            deletedAt: now, purgeAt: now.addingTimeInterval(DeletionRules.purgeDelay),
            identityHeldUntil: now.addingTimeInterval(DeletionRules.holdDuration))
        return try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            // Seed 000 checks blockers before re-auth; a session booked since the preflight still blocks.
            let blockers = try Self.blockers(db, userId: user.id, now: now)
            guard blockers.isEmpty || !RulePolicy.current.enforces(.deleteBlocked) else {
                let kinds = blockers.map { $0.kind.known?.sentence ?? $0.kind.rawValue }.joined(separator: " and ")
                throw BackendError(
                    .conflict, "delete_blocked", "Your account can't be deleted yet: \(kinds) first.",
                    rule: .deleteBlocked)
            }
            try ReauthService.require(db, digest: store.digest, proof: reauth, user: user, target: nil, now: now)
            try IdentityHoldService.hold(
                db, digest: store.digest, phone: user.phone, email: user.email, apple: user.appleSubject,
                google: user.googleSubject, until: deleted.identityHeldUntil)
            try ProviderLinkService.revoke(db, userId: user.id, provider: nil, now: now)
            // The identifiers leave the row now, held only as digests: a deleted account must not keep a
            // number or an address "taken" past its 7-day hold. Its username is free at once (not held: a
            // name is not a way in). The rest goes with the purge.
            try db.execute(
                sql: """
                    UPDATE users SET deleted_at = ?, phone = NULL, email = NULL, apple_subject = NULL,
                        google_subject = NULL, username = NULL, live_passkeys = 0 WHERE id = ?
                    """,
                arguments: [now.unix, user.id])
            // Its passkeys are ways in too: gone now, so a device that keeps one is told it is not saved.
            try db.execute(sql: "DELETE FROM passkeys WHERE user_id = ?", arguments: [user.id])
            try OutboxService.endLinks(db, where: "user_id = ?", [user.id], as: .cancelled, now: now)
            try db.execute(
                sql: "UPDATE code_challenges SET state = ? WHERE user_id = ? AND state = ?",
                arguments: [CodeState.cancelled, user.id, CodeState.open])
            if RulePolicy.current.enforces(.deleteDone) {
                _ = try SessionService.revokeAll(db, userId: user.id, reason: .accountDeleted, now: now)
            }
            try DeletionRecord(
                userId: user.id, isPrimary: user.isPrimary, deletedAt: now.unix, purgeAt: deleted.purgeAt.unix,
                heldUntil: deleted.identityHeldUntil.unix
            ).insert(db)
            try EventLog.append(
                db,
                .init(
                    kind: .accountDeleted, userId: user.id, rule: .deleteDone,
                    detail: [
                        "purge_at": "\(deleted.purgeAt.unix)", "held_until": "\(deleted.identityHeldUntil.unix)",
                    ]),
                now: now)
            if let email = user.email {
                try OutboxService.send(
                    db,
                    .init(
                        channel: .email, recipient: email, kind: .accountDeletedNotice, purpose: "account_delete"),
                    now: now)
            }
            return deleted
        }
    }

    /// `GET /_admin/deletions`, after running any purge already due, so the list is true on a running clock.
    func scheduled() async throws -> [ScheduledPurge] {
        let now = clock.now()
        return try await store.pool.write { db in
            try Self.purgeDue(db, now: now)
            return try DeletionRecord.fetchAll(db, sql: "SELECT * FROM deletions ORDER BY deleted_at, user_id").map {
                ScheduledPurge(
                    userId: $0.userId, deletedAt: Date(unix: $0.deletedAt), purgeAt: Date(unix: $0.purgeAt),
                    purged: $0.purgedAt != nil, identityHeldUntil: Date(unix: $0.heldUntil))
            }
        }
    }

    /// Removes every deleted account whose purge is due: the row and, by cascade, its sessions, codes,
    /// links, grants and blockers. The mock outbox keeps what was sent, as a real mailbox would.
    static func purgeDue(_ db: Database, now: Date) throws {
        let due = try String.fetchAll(
            db, sql: "SELECT user_id FROM deletions WHERE purged_at IS NULL AND purge_at <= ?", arguments: [now.unix])
        for userId in due {
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [userId])
            try db.execute(sql: "UPDATE deletions SET purged_at = purge_at WHERE user_id = ?", arguments: [userId])
        }
        try recordHoldEnds(db, now: now)
        try db.execute(sql: "DELETE FROM identity_holds WHERE held_until <= ?", arguments: [now.unix])
    }

    /// Each deleted account's hold that has run out is a `deletion_hold_ended` event, once, dated when it ran
    /// out: no request ends a hold, so the backend judges it when it next sweeps (a write, a moved clock).
    private static func recordHoldEnds(_ db: Database, now: Date) throws {
        let ended = try Row.fetchAll(
            db,
            sql: """
                SELECT user_id, held_until FROM deletions WHERE held_until <= ? AND NOT EXISTS (
                    SELECT 1 FROM events WHERE events.user_id = deletions.user_id AND events.kind = ?)
                """,
            arguments: [now.unix, EventKind.deletionHoldEnded.rawValue])
        for hold in ended {
            try EventLog.append(
                db, .init(kind: .deletionHoldEnded, userId: hold["user_id"], byRequest: false),
                now: Date(unix: hold["held_until"]))
        }
    }

    // MARK: - Blockers

    /// Seed 001's order: commitments (sessions, bookings) first, soonest first; then money.
    static func blockers(_ db: Database, userId: String, now: Date) throws -> [DeleteBlocker] {
        var blockers: [DeleteBlocker] = []
        for kind in ScheduledKind.allCases {
            let items = try ScheduledItemRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM scheduled_items WHERE user_id = ? AND kind = ? AND starts_at > ?
                    ORDER BY starts_at, id
                    """,
                arguments: [userId, kind, now.unix]
            ).map { ScheduledItem(startsAt: Date(unix: $0.startsAt), title: $0.title) }
            if !items.isEmpty { blockers.append(DeleteBlocker(kind: .init(kind.blocker), items: items)) }
        }
        if let stored = try PayoutRecord.fetchOne(db, key: userId) {
            let payout = payout(stored, at: now)
            if payout.availableMinor + payout.onHoldMinor > 0 {
                blockers.append(DeleteBlocker(kind: .init(.pendingPayout), payout: payout))
            }
        }
        return blockers
    }

    /// The balance as it stands at `now`, worked out from what the scenario stored and the clock alone:
    /// money on hold becomes available when its hold ends, and each weekly automatic payout takes
    /// everything available by then. Nothing moved is written back.
    static func payout(_ stored: PayoutRecord, at now: Date) -> PendingPayout {
        var available = stored.availableMinor
        var onHold = stored.onHoldMinor
        var releasesAt = stored.holdReleasesAt
        var nextPayout = stored.nextAutomaticPayoutAt
        func release(by moment: Double) {
            guard let at = releasesAt, at <= moment else { return }
            available += onHold
            onHold = 0
            releasesAt = nil
        }
        while nextPayout <= now.unix {
            release(by: nextPayout)
            available = 0
            nextPayout += DeletionRules.payoutInterval
        }
        release(by: now.unix)
        return PendingPayout(
            currency: stored.currency, availableMinor: available, onHoldMinor: onHold,
            holdReleasesAt: releasesAt.map { Date(unix: $0) }, nextAutomaticPayoutAt: Date(unix: nextPayout))
    }

    /// The deadlines of the delete flow for the admin clock: purges, holds ending, blockers changing.
    static func deadlines(_ db: Database, after from: Date, upTo to: Date?) throws -> [DeadlineEvent] {
        var events: [DeadlineEvent] = []
        for deletion in try DeletionRecord.fetchAll(db) {
            if deletion.purgedAt == nil {
                events.append(
                    DeadlineEvent(at: Date(unix: deletion.purgeAt), kind: "account_purged", subject: deletion.userId))
            }
            events.append(
                DeadlineEvent(
                    at: Date(unix: deletion.heldUntil), kind: "identity_hold_released", subject: deletion.userId))
        }
        for item in try ScheduledItemRecord.fetchAll(db) {
            events.append(
                DeadlineEvent(at: Date(unix: item.startsAt), kind: "scheduled_item_started", subject: item.userId))
        }
        // Automatic payouts recur weekly: listed only inside the asked window (the next one when open-ended)
        // and only while there is money to pay out.
        let horizon = to ?? from.addingTimeInterval(DeletionRules.payoutInterval)
        for stored in try PayoutRecord.fetchAll(db) {
            let userId = stored.userId
            if let releases = stored.holdReleasesAt, stored.onHoldMinor > 0 {
                events.append(DeadlineEvent(at: Date(unix: releases), kind: "payout_hold_released", subject: userId))
            }
            var next = payout(stored, at: from).nextAutomaticPayoutAt
            while next <= horizon {
                let before = payout(stored, at: next.addingTimeInterval(-1))
                if before.availableMinor + before.onHoldMinor > 0 {
                    events.append(DeadlineEvent(at: next, kind: "automatic_payout", subject: userId))
                }
                next = next.addingTimeInterval(DeletionRules.payoutInterval)
            }
        }
        return events
    }
}

extension DeleteBlockerKind {
    /// What the 409 asks for, in the blocker screens' words.
    var sentence: String {
        switch self {
        case .upcomingSessions: return "cancel your upcoming sessions"
        case .upcomingBookings: return "cancel your upcoming bookings"
        case .pendingPayout: return "withdraw your pending balance"
        }
    }
}
