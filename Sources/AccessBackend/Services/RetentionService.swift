import AccessCore
import Foundation
import GRDB
import Synchronization

/// Deletes rows no rule will read again, so the tables the write paths touch stay the size of the
/// live state rather than of all history. Each limit keeps exactly the window its rule looks back over;
/// expired codes and links are kept a day longer so they still answer "expired" (410), not "unknown".
final class RetentionService: Sendable {
    /// Pruning is a handful of indexed range deletes; once a minute of backend time is plenty.
    static let interval: TimeInterval = 60
    static let expiredGrace: TimeInterval = 24 * 60 * 60
    /// The fake SMS gateway and mailbox: QA reads the newest messages; older ones only hold codes.
    static let outboxCapacity = 1_000

    private let lastRun = Mutex<Double?>(nil)

    /// Runs `prune` when a minute of backend time has passed since the last run (or the clock went back,
    /// as a scenario load does).
    func pruneIfDue(_ db: Database, now: Date) throws {
        let due = lastRun.withLock { last -> Bool in
            guard let previous = last, now.unix >= previous, now.unix - previous < Self.interval else {
                last = now.unix
                return true
            }
            return false
        }
        if due { try Self.prune(db, now: now) }
    }

    static func prune(_ db: Database, now: Date) throws {
        let t = now.unix
        // Before their rows go: a sign-in that ran out is an event of its own (`session_ended`, `expired`).
        try SessionService.endExpired(db, now: now)
        try db.execute(
            sql: """
                DELETE FROM sends WHERE sent_at <= ?;
                DELETE FROM password_failures WHERE failed_at <= ?;
                DELETE FROM reauth_grants WHERE expires_at <= ?;
                DELETE FROM provider_tokens WHERE expires_at <= ?;
                DELETE FROM links WHERE expires_at <= ?;
                DELETE FROM code_challenges WHERE expires_at <= ?;
                DELETE FROM sessions WHERE refresh_expires_at <= ?;
                DELETE FROM reauth_grants WHERE family_id NOT IN (SELECT family_id FROM sessions WHERE revoked = 0);
                DELETE FROM sign_ins WHERE family_id NOT IN (SELECT family_id FROM sessions);
                DELETE FROM spent_refresh_tokens WHERE expires_at <= ?;
                DELETE FROM ended_sessions WHERE expires_at <= ?;
                UPDATE spent_refresh_tokens SET successor_sealed = NULL
                    WHERE successor_sealed IS NOT NULL AND spent_at <= ?;
                DELETE FROM login_failures WHERE last_failed_at <= ? AND (locked_until IS NULL OR locked_until <= ?);
                """,
            arguments: [
                t - SendLimits.dailyWindow, t - PasswordAttemptRules.window, t, t,
                t - expiredGrace, t - expiredGrace, t, t, t, t - RefreshRules.reuseInterval,
                t - LoginLockRules.forgetAfter, t,
            ])
        // On a running clock nobody calls /_admin/clock/advance: due purges run with the rest of the pruning.
        try DeletionService.purgeDue(db, now: now)
    }
}
