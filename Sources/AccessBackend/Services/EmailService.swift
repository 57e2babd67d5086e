import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Changing and adding the account's email (seeds 000/001): nothing changes until the emailed link is
/// opened; the link is one-shot and lives `LinkLifetimes.emailChange`; the old address is told, with a link that
/// undoes the change and signs every session out, so a hijacked session cannot quietly take the account.
struct EmailService: Sendable {
    let store: Store
    let clock: BackendClock
    let linkBase: String

    private var links: LinkService { LinkService(store: store, clock: clock, linkBase: linkBase) }

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
        return try await EventLog.recordingRefusals(store, now: now, userId: user.id, subject: nil) {
            try await store.pool.write { db in
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
                    db, userId: user.id, kind: .emailChange, email: email, passwordHash: nil,
                    requester: .client(account: user.id), now: now)
            }
        }
    }

    func addWithPassword(user: UserRecord, email typed: String, password: String) async throws -> EmailLinkSent {
        let now = clock.now()
        let email = EmailRules.normalized(typed)
        guard EmailRules.isValid(email) else { throw Self.invalidError }
        // An account without an email has no password either: a password goes with an address.
        try PasswordService.refuseInvalid(password, email: email, current: nil)
        // bcrypt takes tens of milliseconds: done before the write lock is taken.
        let passwordHash = PasswordHasher.hash(password)
        return try await EventLog.recordingRefusals(store, now: now, userId: user.id, subject: nil) {
            try await store.pool.write { db in
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
                    db, userId: user.id, kind: .emailAdd, email: email, passwordHash: passwordHash,
                    requester: .client(account: user.id), now: now)
            }
        }
    }

    /// "Resend link": a new token for the pending change; the previous link stops working. Only a link
    /// never opened, replaced or undone by a revert qualifies, so a revert cannot be resent away; and only
    /// for `LinkLifetimes.emailChangeResendable` after it expired, without "Verify it's you" again ("This link
    /// has expired" → "Request a new link"). The send limits still apply.
    func resend(user: UserRecord) async throws -> EmailLinkSent {
        let now = clock.now()
        // Not kept (the day after alone): a link can be resent only while it is live.
        let grace =
            RulePolicy.current.enforces(.emailLinkResent, .resendableForADayAfterExpiry)
            ? LinkLifetimes.emailChangeResendable : 0
        return try await EventLog.recordingRefusals(store, now: now, userId: user.id, subject: nil) {
            try await store.pool.write { db in
                guard
                    let pending = try LinkRecord.fetchOne(
                        db,
                        sql: """
                            SELECT * FROM links WHERE user_id = ? AND purpose IN (?, ?) AND used = 0 AND expires_at > ?
                            ORDER BY expires_at DESC LIMIT 1
                            """,
                        arguments: [
                            user.id, EmailLink.emailChange, EmailLink.emailAdd,
                            now.unix - grace,
                        ]),
                    let email = pending.email
                else {
                    throw BackendError(
                        .notFound, "link_not_found", "There is no email change waiting. Start again.",
                        rule: .emailNothingPending)
                }
                return try sendVerifyLink(
                    db, userId: user.id, kind: pending.purpose, email: email, passwordHash: pending.passwordHash,
                    requester: .client(account: user.id), now: now)
            }
        }
    }

    /// Opening the link: applies the change, tells the old address (with the way back) and starts a new
    /// session, as seed 001 says ("validates token, applies change, issues new session").
    func verify(token: String) async throws -> EmailVerified {
        let now = clock.now()
        let owner = try await LinkService.owner(store, token: token)
        return try await EventLog.recordingRefusals(store, now: now, userId: owner.userId, subject: owner.email) {
            try await verifyRecorded(token: token, now: now)
        }
    }

    private func verifyRecorded(token: String, now: Date) async throws -> EmailVerified {
        try await store.pool.write { db in
            let link = try redeem(db, token: token, kinds: [.emailChange, .emailAdd], now: now)
            let user = try AccountService.current(db, id: link.userId)
            // Someone may have taken the address while the link sat in the inbox.
            guard try !Self.taken(db, email: link.email, by: user.id) else { throw Self.takenError }
            try IdentityHoldService.refuseIfHeld(db, digest: store.digest, email: link.email, now: now)
            if !RulePolicy.current.enforces(.emailChanged) {
                // Not kept (conform's self-test): the link is spent and nothing changes.
            } else if link.kind == .emailAdd {
                try db.execute(sql: "UPDATE users SET email = ? WHERE id = ?", arguments: [link.email, user.id])
                // The password that came with the address, as an add link carries it.
                if let passwordHash = link.passwordHash {
                    try PasswordService.set(db, userId: user.id, hash: passwordHash, changedAt: now)
                }
            } else {
                try db.execute(sql: "UPDATE users SET email = ? WHERE id = ?", arguments: [link.email, user.id])
                if let previous = user.email {
                    // The old address is told, with its way back.
                    try links.issue(
                        db, .emailRevert, userId: user.id, to: previous, previousEmail: link.email, now: now)
                }
            }
            if RulePolicy.current.enforces(.emailChanged) {
                try EventLog.append(
                    db,
                    .init(
                        kind: link.kind == .emailAdd ? .methodAdded : .methodChanged, userId: user.id,
                        subject: link.email, rule: .emailChanged,
                        detail: ["method": "email", "previous": user.email ?? ""]),
                    now: now)
            }
            let updated = try AccountService.current(db, id: user.id)
            let session = try SessionService.issue(db, digest: store.digest, userId: user.id, now: now)
            if !RulePolicy.current.enforces(.emailChanged, .issuedSessionWorks) {
                // Not kept: the answer carries a session the backend does not keep.
                try db.execute(
                    sql: "DELETE FROM sessions WHERE access_hash = ?", arguments: [store.digest(session.accessToken)])
            }
            return EmailVerified(authMethods: updated.authMethods, session: session)
        }
    }

    /// The old address's way back: the email returns and every session ends, so whoever changed it is out.
    func revert(token: String) async throws -> EmailReverted {
        let now = clock.now()
        let owner = try await LinkService.owner(store, token: token)
        return try await EventLog.recordingRefusals(store, now: now, userId: owner.userId, subject: owner.email) {
            try await revertRecorded(token: token, now: now)
        }
    }

    private func revertRecorded(token: String, now: Date) async throws -> EmailReverted {
        try await store.pool.write { db in
            let link = try redeem(db, token: token, kinds: [.emailRevert], now: now)
            guard try !Self.taken(db, email: link.email, by: link.userId) else { throw Self.takenError }
            try IdentityHoldService.refuseIfHeld(db, digest: store.digest, email: link.email, now: now)
            try db.execute(sql: "UPDATE users SET email = ? WHERE id = ?", arguments: [link.email, link.userId])
            try EventLog.append(
                db,
                .init(
                    kind: .methodChanged, userId: link.userId, subject: link.email, rule: .emailReverted,
                    detail: ["method": "email", "reverted": "yes"]),
                now: now)
            // Pending changes die too: a link still in the intruder's inbox must not undo the revert.
            try OutboxService.endLinks(
                db, where: "user_id = ? AND purpose IN (?, ?)",
                [link.userId, EmailLink.emailChange, EmailLink.emailAdd], as: .cancelled, now: now)
            let ended: Int
            if !RulePolicy.current.enforces(.emailReverted) {
                ended = 0
            } else if !RulePolicy.current.enforces(.emailReverted, .changeSessionEnds) {
                // Not kept: the sessions from before the change end, the one its link issued (the newest) lives on.
                let newest = try String.fetchOne(
                    db, sql: "SELECT access_hash FROM sessions WHERE user_id = ? ORDER BY rowid DESC LIMIT 1",
                    arguments: [link.userId])
                ended = try SessionService.revokeAll(
                    db, userId: link.userId, keeping: newest, reason: .emailReverted, now: now)
            } else {
                ended = try SessionService.revokeAll(db, userId: link.userId, reason: .emailReverted, now: now)
            }
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

    /// `kind`: `emailChange` or `emailAdd`.
    func sendVerifyLink(
        _ db: Database, userId: String, kind: EmailLink, email: String, passwordHash: String?,
        requester: RateLimitService.Requester, now: Date
    ) throws -> EmailLinkSent {
        let isResend = try LinkService.hasLive(db, [kind], userId: userId, to: email, now: now)
        try RateLimitService.check(
            db, channel: .email, recipient: email, purpose: kind.rawValue, isResend: isResend, requester: requester,
            now: now)
        let expires = try links.issue(db, kind, userId: userId, to: email, passwordHash: passwordHash, now: now)
        try RateLimitService.record(
            db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
        return EmailLinkSent(sentTo: email, expiresAt: expires)
    }

    private struct Redeemed {
        var userId: String
        var kind: EmailLink
        var email: String
        var passwordHash: String?
    }

    /// 404 for a token nobody issued, 410 for one used or past its time (seed 001: both "This link has
    /// expired"); otherwise the link is spent here, in the transaction that acts on it.
    private func redeem(_ db: Database, token: String, kinds: Set<EmailLink>, now: Date) throws -> Redeemed {
        let (link, email) = try LinkService.liveAddress(db, tokenHash: store.digest(token), kinds, now: now)
        try LinkService.spend(db, link, now: now)
        return Redeemed(userId: link.userId, kind: link.purpose, email: email, passwordHash: link.passwordHash)
    }
}
