import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Changing and adding the account's email (seeds 000/001): nothing changes until the emailed link is
/// opened; the link is one-shot and lives 30 minutes; the old address is told, with a link that undoes
/// the change and signs every session out, so a hijacked session cannot quietly take the account.
struct EmailService: Sendable {
    static let verifyLinkLifetime = LinkLifetimes.emailChange
    static let revertLinkLifetime = LinkLifetimes.emailRevert

    let store: Store
    let clock: BackendClock
    let linkBase: String

    static let takenError = BackendError(
        .conflict, "email_taken", "This email is already in use by another account.", rule: .emailTaken)
    static let invalidError = BackendError(
        .unprocessableContent, "invalid_email", "Enter a valid email address.", rule: .emailInvalid)

    func availability(user: UserRecord, email: String) async throws -> EmailAvailability {
        guard EmailRules.isValid(email) else { throw Self.invalidError }
        let taken = try await store.pool.read { db in try Self.taken(db, email: email, by: user.id) }
        // Not kept: the answer says the opposite.
        let available =
            taken ? !RulePolicy.current.enforces(.emailTaken) : RulePolicy.current.enforces(.emailAvailable)
        return EmailAvailability(email: EmailRules.normalized(email), available: available)
    }

    func requestChange(user: UserRecord, email typed: String, reauth: ReauthProof) async throws -> EmailLinkSent {
        let now = clock.now()
        let email = EmailRules.normalized(typed)
        return try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let user = try AccountService.current(db, id: user.id)
            guard let current = user.email else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no email yet. Add one instead.",
                    rule: .emailChangeWithoutEmail)
            }
            guard EmailRules.isValid(email) else { throw Self.invalidError }
            guard !EmailRules.same(email, current) else {
                throw BackendError(
                    .unprocessableContent, "email_unchanged", "That's already your email address.",
                    rule: .emailUnchanged)
            }
            try ReauthService.require(db, digest: store.digest, proof: reauth, user: user, target: .email, now: now)
            guard try !Self.taken(db, email: email, by: user.id) else { throw Self.takenError }
            try IdentityHoldService.refuseIfHeld(db, digest: store.digest, email: email, now: now)
            return try sendVerifyLink(
                db, userId: user.id, purpose: .emailChange, email: email, passwordHash: nil,
                requester: .client(account: user.id), now: now)
        }
    }

    func addWithPassword(user: UserRecord, email typed: String, password: String) async throws -> EmailLinkSent {
        let now = clock.now()
        let email = EmailRules.normalized(typed)
        guard EmailRules.isValid(email) else { throw Self.invalidError }
        try PasswordService.refuseOverlong(password)
        let broken = PasswordRules.violations(password, email: email)
        guard broken.isEmpty else { throw PasswordService.invalid(broken.map(\.rawValue)) }
        // bcrypt takes tens of milliseconds: done before the write lock is taken.
        let passwordHash = PasswordHasher.hash(password)
        return try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let user = try AccountService.current(db, id: user.id)
            guard user.email == nil else {
                throw BackendError(
                    .conflict, "email_already_set", "This account already has an email. Change it instead.",
                    rule: .emailAddWithEmail)
            }
            guard try !Self.taken(db, email: email, by: user.id) else { throw Self.takenError }
            try IdentityHoldService.refuseIfHeld(db, digest: store.digest, email: email, now: now)
            return try sendVerifyLink(
                db, userId: user.id, purpose: .emailAdd, email: email, passwordHash: passwordHash,
                requester: .client(account: user.id), now: now)
        }
    }

    /// How long after its link expired a change can still be resent without "Verify it's you" again
    /// ("This link has expired" → "Request a new link"); the send limits still apply.
    static let resendableFor: TimeInterval = 24 * 60 * 60

    /// "Resend link": a new token for the pending change; the previous link stops working. Only a link
    /// never opened, replaced or undone by a revert qualifies, so a revert cannot be resent away.
    func resend(user: UserRecord) async throws -> EmailLinkSent {
        let now = clock.now()
        return try await store.pool.write { db in
            guard
                let pending = try LinkRecord.fetchOne(
                    db,
                    sql: """
                        SELECT * FROM links WHERE user_id = ? AND purpose IN (?, ?) AND used = 0 AND expires_at > ?
                        ORDER BY expires_at DESC LIMIT 1
                        """,
                    arguments: [user.id, LinkPurpose.emailChange, LinkPurpose.emailAdd, now.unix - Self.resendableFor]),
                let email = pending.email
            else {
                throw BackendError(
                    .notFound, "link_not_found", "There is no email change waiting. Start again.",
                    rule: .emailNothingPending)
            }
            return try sendVerifyLink(
                db, userId: user.id, purpose: pending.purpose, email: email, passwordHash: pending.passwordHash,
                requester: .client(account: user.id), now: now)
        }
    }

    /// Opening the link: applies the change, tells the old address (with the way back) and starts a new
    /// session, as seed 001 says ("validates token, applies change, issues new session").
    func verify(token: String) async throws -> EmailVerified {
        let now = clock.now()
        return try await store.pool.write { db in
            let link = try redeem(db, token: token, purposes: [.emailChange, .emailAdd], now: now)
            let user = try AccountService.current(db, id: link.userId)
            // Someone may have taken the address while the link sat in the inbox.
            guard try !Self.taken(db, email: link.email, by: user.id) else { throw Self.takenError }
            try IdentityHoldService.refuseIfHeld(db, digest: store.digest, email: link.email, now: now)
            if !RulePolicy.current.enforces(.emailChanged) {
                // Not kept: the link is spent and nothing changes.
            } else if link.purpose == .emailAdd {
                try db.execute(
                    sql: """
                        UPDATE users SET email = ?, password_hash = ?, password_salt = NULL, password_changed_at = ?
                        WHERE id = ?
                        """,
                    arguments: [link.email, link.passwordHash, now.unix, user.id])
            } else {
                try db.execute(sql: "UPDATE users SET email = ? WHERE id = ?", arguments: [link.email, user.id])
                if let previous = user.email {
                    try sendRevertNotice(db, userId: user.id, previous: previous, new: link.email, now: now)
                }
            }
            let updated = try AccountService.current(db, id: user.id)
            let session = try SessionService.issue(db, digest: store.digest, userId: user.id, now: now)
            return EmailVerified(authMethods: updated.authMethods, session: session)
        }
    }

    /// The old address's way back: the email returns and every session ends, so whoever changed it is out.
    func revert(token: String) async throws -> EmailReverted {
        let now = clock.now()
        return try await store.pool.write { db in
            let link = try redeem(db, token: token, purposes: [.emailRevert], now: now)
            guard try !Self.taken(db, email: link.email, by: link.userId) else { throw Self.takenError }
            try IdentityHoldService.refuseIfHeld(db, digest: store.digest, email: link.email, now: now)
            try db.execute(sql: "UPDATE users SET email = ? WHERE id = ?", arguments: [link.email, link.userId])
            // Pending changes die too: a link still in the intruder's inbox must not undo the revert.
            try OutboxService.endLinks(
                db, where: "user_id = ? AND purpose IN (?, ?)",
                [link.userId, LinkPurpose.emailChange, LinkPurpose.emailAdd], as: .cancelled, now: now)
            let ended =
                RulePolicy.current.enforces(.emailReverted) ? try SessionService.revokeAll(db, userId: link.userId) : 0
            return EmailReverted(email: link.email, signedOutSessions: ended)
        }
    }

    // MARK: - Rules over one transaction

    /// Never says who holds the address (seed 001: privacy).
    static func taken(_ db: Database, email: String, by userId: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS(SELECT 1 FROM users WHERE email = ? COLLATE NOCASE AND id != ?)",
            arguments: [EmailRules.normalized(email), userId]) ?? false
    }

    /// `purpose`: `emailChange` or `emailAdd`.
    func sendVerifyLink(
        _ db: Database, userId: String, purpose: LinkPurpose, email: String, passwordHash: String?,
        requester: RateLimitService.Requester, now: Date
    ) throws -> EmailLinkSent {
        // A second link to the same address while one is live is a resend, as a second code is for texts.
        let isResend =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS(SELECT 1 FROM links WHERE user_id = ? AND purpose = ? AND email = ? COLLATE NOCASE
                    AND used = 0 AND expires_at > ?)
                    """,
                arguments: [userId, purpose, email, now.unix]) ?? false
        try RateLimitService.check(
            db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
        // One pending change at a time: the links sent before this one stop working.
        if RulePolicy.current.enforces(.emailLinkSent), RulePolicy.current.enforces(.emailLinkResent) {
            try OutboxService.endLinks(
                db, where: "user_id = ? AND purpose IN (?, ?)",
                [userId, LinkPurpose.emailChange, LinkPurpose.emailAdd],
                as: .superseded, now: now)
        }
        let token = Secrets.token(prefix: "lk_")
        let expires = now.addingTimeInterval(Self.verifyLinkLifetime)
        try LinkRecord(
            tokenHash: store.digest(token), userId: userId, purpose: purpose, expiresAt: expires.unix, email: email,
            passwordHash: passwordHash
        ).insert(db)
        try RateLimitService.record(
            db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
        try OutboxService.send(
            db,
            .init(
                channel: .email, recipient: email, kind: .emailVerifyLink, purpose: purpose.rawValue,
                link: "\(linkBase)/verify-email?token=\(token)", token: token, tokenHash: store.digest(token)),
            sealedWith: store.outboxSealer, now: now)
        return EmailLinkSent(sentTo: email, expiresAt: expires)
    }

    private func sendRevertNotice(_ db: Database, userId: String, previous: String, new: String, now: Date) throws {
        let token = Secrets.token(prefix: "lk_")
        try LinkRecord(
            tokenHash: store.digest(token), userId: userId, purpose: .emailRevert,
            expiresAt: now.addingTimeInterval(Self.revertLinkLifetime).unix, email: previous, previousEmail: new
        ).insert(db)
        try OutboxService.send(
            db,
            .init(
                channel: .email, recipient: previous, kind: .emailChangedNotice,
                purpose: LinkPurpose.emailRevert.rawValue, link: "\(linkBase)/revert-email?token=\(token)",
                token: token, tokenHash: store.digest(token)),
            sealedWith: store.outboxSealer, now: now)
    }

    private struct Redeemed {
        var userId: String
        var purpose: LinkPurpose
        var email: String
        var passwordHash: String?
    }

    /// 404 for a token nobody issued, 410 for one used or past its time (seed 001: both "This link has
    /// expired"); otherwise the link is spent here, in the transaction that acts on it.
    private func redeem(_ db: Database, token: String, purposes: [LinkPurpose], now: Date) throws -> Redeemed {
        let hash = store.digest(token)
        let (link, email) = try LinkService.liveEmailLink(db, tokenHash: hash, purposes: purposes, now: now)
        try LinkRecord.spend(db, tokenHash: hash)
        return Redeemed(userId: link.userId, purpose: link.purpose, email: email, passwordHash: link.passwordHash)
    }
}
