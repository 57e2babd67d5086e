import AccessAPI
import AccessCore
import Foundation
import GRDB

/// "Forgot password?" (issue 28 item 25; seed 003's "password reset link sent to recovery email", seed 002's
/// reset endpoint): a one-shot link (30 min, seed 000's lifetime for a magic link that changes a credential)
/// to the account's email; opening it with a new password that passes `PasswordRules` replaces the password,
/// ends every session of the account and tells the address. No session is issued: the person logs in with
/// the new password, on the one path that signs in with a password (`PasswordLoginService.login`).
///
/// No account enumeration: every address gets the same answer, every request counts for the send limits as a
/// sent link does, and an address without an account gets the same work, undone (`SameWorkService`), so neither
/// the answer, nor a later 429, nor the time it took says whether the address has an account.
struct PasswordResetService: Sendable {
    static let linkLifetime = LinkLifetimes.passwordReset
    /// What the outbox names the reset link and its notice by.
    static let purpose = LinkPurpose.passwordReset.rawValue

    let store: Store
    let clock: BackendClock
    let linkBase: String

    func request(email typed: String) async throws -> PasswordResetRequested {
        let now = clock.now()
        let email = EmailRules.normalized(typed)
        guard EmailRules.isValid(email) else { throw EmailService.invalidError }
        let requester = RateLimitService.Requester.client(account: nil)
        try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            // Never a resend: whether a link is live would depend on the account, which must not show.
            try RateLimitService.check(
                db, channel: .email, recipient: email, isResend: false, requester: requester, now: now)
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
        return PasswordResetRequested(email: email, resendAfter: now.addingTimeInterval(RateLimitService.cooldown))
    }

    /// Whether the link works, and for which address (the new password must not resemble it); not spent.
    func check(token: String) async throws -> PasswordResetLink {
        let now = clock.now()
        return try await store.pool.write { db in
            let (link, email) = try LinkService.liveEmailLink(
                db, tokenHash: store.digest(token), purposes: [.passwordReset], now: now)
            // Not kept: checking spends the link.
            if !RulePolicy.current.enforces(.passwordResetLinkLive) {
                try LinkRecord.spend(db, tokenHash: store.digest(token))
            }
            return PasswordResetLink(email: email, expiresAt: Date(unix: link.expiresAt))
        }
    }

    func complete(token: String, newPassword: String) async throws -> PasswordResetDone {
        let now = clock.now()
        try PasswordService.refuseOverlong(newPassword)
        let hash = store.digest(token)
        // A weak password, or the current one, is refused before anything is written: the link stays usable.
        let (email, user) = try await store.pool.read { db in
            let (link, email) = try LinkService.liveEmailLink(db, tokenHash: hash, purposes: [.passwordReset], now: now)
            return (email, try AccountService.current(db, id: link.userId))
        }
        var broken = PasswordRules.violations(newPassword, email: email).map(\.rawValue)
        if let stored = user.passwordHash,
            PasswordHasher.verify(newPassword, stored: stored, legacySalt: user.passwordSalt)
        {
            broken.append(PasswordService.unchanged)
        }
        guard broken.isEmpty else { throw PasswordService.invalid(broken) }
        // bcrypt takes tens of milliseconds: hashed before the write lock is taken, the link read again in it.
        let newHash = PasswordHasher.hash(newPassword)
        return try await store.pool.write { db in
            let (link, email) = try LinkService.liveEmailLink(
                db, tokenHash: hash, purposes: [.passwordReset], now: now)
            try LinkRecord.spend(db, tokenHash: hash)
            let user = try AccountService.current(db, id: link.userId)
            try db.execute(
                sql: """
                    UPDATE users SET password_hash = ?, password_salt = NULL, password_changed_at = ?,
                    email_unverified = 0 WHERE id = ?
                    """,
                arguments: [newHash, now.unix, user.id])
            // The link reached the address: that proves it, as the registration link would have.
            try OnboardingService.emailVerified(db, userId: user.id)
            // Whoever was guessing the old password has nothing left to guess.
            try LoginThrottleService.clear(db, key: LoginThrottleService.key(email, digest: store.digest))
            let ended =
                RulePolicy.current.enforces(.passwordReset) ? try SessionService.revokeAll(db, userId: user.id) : 0
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
        try OutboxService.endLinks(
            db, where: "user_id = ? AND purpose = ?", [account.id, LinkPurpose.passwordReset], as: .superseded,
            now: now)
        let token = Secrets.token(prefix: "pr_")
        try LinkRecord(
            tokenHash: store.digest(token), userId: account.id, purpose: .passwordReset,
            expiresAt: now.unix + Self.linkLifetime, email: email
        ).insert(db)
        try OutboxService.send(
            db,
            .init(
                channel: .email, recipient: email, kind: .passwordResetLink, purpose: Self.purpose,
                link: "\(linkBase)/reset-password?token=\(token)", token: token, tokenHash: store.digest(token)),
            sealedWith: store.outboxSealer, now: now)
    }
}
