import AccessAPI
import AccessCore
import Foundation
import GRDB

/// "Forgot password?" (issue 28 item 25; seed 003's "password reset link sent to recovery email", seed 002's
/// reset endpoint): a one-shot link (`EmailLink.passwordReset`) to the account's email; opening it with a new
/// password that `PasswordService` takes (the rules, and not the current one) replaces the password, ends every
/// session of the account and tells the address. No session is issued: the person logs in with
/// the new password, on the one path that signs in with a password (`PasswordLoginService.login`).
///
/// No account enumeration: every address gets the same answer, every request counts for the send limits as a
/// sent link does, and an address without an account gets the same work, undone (`SameWorkService`), so neither
/// the answer, nor a later 429, nor the time it took says whether the address has an account.
struct PasswordResetService: Sendable {
    /// What the outbox names the reset link and its notice by.
    static let purpose = EmailLink.passwordReset.rawValue

    let store: Store
    let clock: BackendClock
    let linkBase: String

    private var links: LinkService { LinkService(store: store, clock: clock, linkBase: linkBase) }

    func request(email typed: String) async throws -> PasswordResetRequested {
        let now = clock.now()
        let email = EmailRules.normalized(typed)
        guard EmailRules.isValid(email) else { throw EmailService.invalidError }
        let requester = RateLimitService.Requester.client(account: nil)
        try await EventLog.recordingRefusals(store, now: now, userId: nil, subject: email) {
            try await store.pool.write { db in
                try store.retention.pruneIfDue(db, now: now)
                // Never a resend: whether a link is live would depend on the account, which must not show.
                try RateLimitService.check(
                    db, channel: .email, recipient: email, purpose: Self.purpose, isResend: false, requester: requester,
                    now: now)
                try RateLimitService.record(
                    db, channel: .email, recipient: email, isResend: false, requester: requester, now: now)
                // The account's own spelling of its address, never told in the answer (which echoes what was typed).
                let account = try Self.resettableAccount(db, email: email)
                // Not kept: an address without an account is told apart.
                guard account != nil || RulePolicy.current.enforces(.passwordResetAnswered) else {
                    throw PasswordLoginService.unknownAddress
                }
                try SameWorkService.forAccount(db, account, email: email) { account in
                    try sendLink(db, account: account, email: account.email ?? email, now: now)
                }
            }
        }
        return PasswordResetRequested(email: email, resendAfter: now.addingTimeInterval(SendLimits.cooldown))
    }

    /// Whether the link works, and for which address (the new password must not resemble it); not spent.
    func check(token: String) async throws -> PasswordResetLink {
        let now = clock.now()
        let owner = try await LinkService.owner(store, token: token)
        return try await EventLog.recordingRefusals(store, now: now, userId: owner.userId, subject: owner.email) {
            try await store.pool.write { db in
                let (link, email) = try LinkService.liveAddress(
                    db, tokenHash: store.digest(token), [.passwordReset], now: now)
                // Not kept (conform's self-test): checking spends the link.
                if !RulePolicy.current.enforces(.passwordResetLinkLive) { try LinkService.spend(db, link, now: now) }
                return PasswordResetLink(email: email, expiresAt: Date(unix: link.expiresAt))
            }
        }
    }

    func complete(token: String, newPassword: String) async throws -> PasswordResetDone {
        let now = clock.now()
        try PasswordService.refuseOverlong(newPassword)
        let hash = store.digest(token)
        // A weak password, or the current one, is refused before anything is written: the link stays usable. The
        // current one is checked (bcrypt, tens of milliseconds) outside the write lock, and again in it only if the
        // password changed meanwhile.
        let (email, judged) = try await store.pool.read { db in
            let (link, email) = try LinkService.liveAddress(db, tokenHash: hash, [.passwordReset], now: now)
            return (email, try UserRecord.fetchOne(db, key: link.userId)?.storedPassword)
        }
        try PasswordService.refuseInvalid(newPassword, email: email, current: judged)
        let newHash = PasswordHasher.hash(newPassword)
        return try await store.pool.write { db in
            let (link, email) = try LinkService.liveAddress(db, tokenHash: hash, [.passwordReset], now: now)
            let user = try AccountService.current(db, id: link.userId)
            if user.storedPassword != judged {
                try PasswordService.refuseInvalid(newPassword, email: email, current: user.storedPassword)
            }
            try LinkService.spend(db, link, now: now)
            try PasswordService.set(db, userId: user.id, hash: newHash, changedAt: now)
            try EventLog.append(db, .init(kind: .passwordReset, userId: user.id, rule: .passwordReset), now: now)
            // The link reached the address: that proves it, as the registration link would have.
            try db.execute(sql: "UPDATE users SET email_unverified = 0 WHERE id = ?", arguments: [user.id])
            try OnboardingService.emailVerified(db, userId: user.id)
            // Whoever was guessing the old password has nothing left to guess.
            try LoginThrottleService.clear(db, key: LoginThrottleService.key(email, digest: store.digest))
            let ended: Int
            if !RulePolicy.current.enforces(.passwordReset) {
                ended = 0
            } else if !RulePolicy.current.enforces(.passwordReset, .refreshTokensEnd) {
                // Not kept: the access tokens end, their refresh tokens live on.
                ended = try SessionService.endAccessOnly(db, userId: user.id, reason: .passwordReset, now: now)
            } else {
                ended = try SessionService.revokeAll(db, userId: user.id, reason: .passwordReset, now: now)
            }
            if !RulePolicy.current.enforces(.passwordReset, .noSessionIssued) {
                // Not kept: the reset signs the account in as well, a session nobody asked for.
                _ = try SessionService.issue(db, digest: store.digest, userId: user.id, now: now)
            }
            try OutboxService.send(
                db, .init(channel: .email, recipient: email, kind: .passwordChangedNotice, purpose: Self.purpose),
                now: now)
            return PasswordResetDone(email: email, signedOutSessions: ended)
        }
    }

    /// Only an account with a password has one to reset; a deleted one has none (`SignInService.owner`).
    private static func resettableAccount(_ db: Database, email: String) throws -> UserRecord? {
        guard let user = try SignInService.owner(db, channel: .email, destination: email), user.passwordHash != nil
        else { return nil }
        return user
    }

    /// A new link; the account's earlier reset links stop working (`link.superseded`).
    private func sendLink(_ db: Database, account: UserRecord, email: String, now: Date) throws {
        try links.issue(db, .passwordReset, userId: account.id, to: email, now: now)
    }
}
