import AccessCore
import Foundation
import GRDB

/// Seed 003's "progressive timeout for repeated failures", for email & password login: failures are
/// counted per address (whether or not it has an account, so the wait reveals nothing); the third in a
/// row locks the address for 30 s and each further one doubles the wait, up to 15 minutes. While
/// locked, an attempt is refused before its password is looked at and does not count. A success, or a
/// day without failures, starts the count over.
enum LoginThrottleService {
    /// The wait the `failures`-th failure in a row earns; nil below the threshold.
    static func lock(afterFailures failures: Int) -> TimeInterval? {
        guard failures > LoginLockRules.failuresBeforeLock else { return nil }
        let doublings = min(failures - LoginLockRules.failuresBeforeLock - 1, 10)
        return min(LoginLockRules.longestLock, LoginLockRules.firstLock * Double(1 << doublings))
    }

    static func key(_ email: String, digest: TokenDigest) -> String {
        digest(EmailRules.normalized(email).lowercased(), context: "login")
    }

    static func refuseIfLocked(_ db: Database, key: String, now: Date) throws {
        guard let until = try LoginFailureRecord.fetchOne(db, key: key)?.lockedUntil, until > now.unix else { return }
        throw lockedError(retryAfter: until - now.unix)
    }

    /// Counts a failure; the lock it starts, if any.
    static func recordFailure(_ db: Database, key: String, now: Date) throws -> TimeInterval? {
        let previous = try LoginFailureRecord.fetchOne(db, key: key)
        let streak =
            previous.flatMap { now.unix - $0.lastFailedAt < LoginLockRules.forgetAfter ? $0.failures : nil } ?? 0
        let failures = streak + 1
        let lock = lock(afterFailures: failures)
        try LoginFailureRecord(
            emailKey: key, failures: failures, lastFailedAt: now.unix, lockedUntil: lock.map { now.unix + $0 }
        ).insert(db, onConflict: .replace)
        return lock
    }

    /// A lockout is a security event (seed 003): the account's address is told each time one starts,
    /// whether the failures came from Log in or from a recovery link. Its event says when it ends: nothing happens
    /// then to record, and support asks "until when?".
    static func noticeLockout(_ db: Database, email: String, purpose: String, lock: TimeInterval, now: Date) throws {
        let until = now.addingTimeInterval(lock).formatted(.iso8601)
        try EventLog.append(
            db,
            .init(
                kind: .lockStarted, userId: try EventLog.owner(db, of: email), subject: email,
                detail: ["purpose": purpose, "until": until]),
            now: now)
        try OutboxService.send(
            db, .init(channel: .email, recipient: email, kind: .lockoutNotice, purpose: purpose), now: now)
    }

    static func clear(_ db: Database, key: String) throws {
        try LoginFailureRecord.deleteOne(db, key: key)
    }

    /// `rule`: the limit's own while a lock runs; the flow's when this failure started it.
    static func lockedError(retryAfter: TimeInterval, rule: Rule? = nil) -> BackendError {
        BackendError.rateLimited(
            retryAfter: max(1, Int(retryAfter.rounded(.up))), limit: .loginLockout,
            message: "Too many failed attempts. Wait before trying again.", rule: rule)
    }
}
