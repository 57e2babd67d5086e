import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Seed 003's "Can't access your account?": a one-shot link (`EmailLink.recovery`) emailed to the account's address, then
/// the account's password with the link gives a session with limited access (profile and settings) until
/// a phone is re-verified (OTPService, purpose reverify_phone). The answer to a start never tells whether
/// the address has an account; wrong passwords count with POST /auth/login's (`LoginThrottleService`).
struct RecoveryService: Sendable {
    /// What the outbox names recovery's links and notices by.
    static let purpose = EmailLink.recovery.rawValue

    let store: Store
    let clock: BackendClock
    let linkBase: String

    private var links: LinkService { LinkService(store: store, clock: clock, linkBase: linkBase) }

    static let limitedAccess = BackendError(
        .forbidden, "limited_access", "Your account has limited access until you verify your phone number.",
        rule: .recoveryLimitedAccess)

    /// The one rule of limited access, applied where a session's user is resolved for a change.
    static func refuseIfLimited(_ access: AccessLevel) throws {
        if access == .limited { throw limitedAccess }
    }

    /// What an unknown address's password is checked against, so answering it takes as long as a real check.
    private static let decoyHash = PasswordHasher.hash(Secrets.token(prefix: "decoy_"))

    func start(_ body: RecoveryStartBody, ip: String?) async throws -> RecoveryStarted {
        let now = clock.now()
        let email = EmailRules.normalized(body.email)
        guard EmailRules.isValid(email) else { throw EmailService.invalidError }
        try DeviceService.validate(body.device)
        let emailKey = store.digest(email.lowercased(), context: "recovery")
        return try await EventLog.recordingRefusals(store, now: now, userId: nil, subject: email) {
            try await store.pool.write { db in
                try store.retention.pruneIfDue(db, now: now)
                try Self.refuseIfTooManyRequests(
                    db, email: email, emailKey: emailKey, ip: ip, now: now)
                let account = try Self.recoverableAccount(db, email: email)
                // Not kept: an address without an account is told apart.
                guard account != nil || RulePolicy.current.enforces(.recoveryAnswered) else {
                    throw PasswordLoginService.unknownAddress
                }
                // An address without an account gets the same work, undone: the time must not tell it apart.
                try SameWorkService.forAccount(db, account, email: email) { try sendLink(db, account: $0, now: now) }
                try RecoveryRequestRecord(
                    emailKey: emailKey, userId: account?.id, ip: ip, deviceIdentifier: body.device.identifier,
                    deviceName: body.device.deviceName, requestedAt: now.unix, linkSent: account != nil
                ).insert(db)
                return RecoveryStarted(email: email, resendAfter: now.addingTimeInterval(SendLimits.cooldown))
            }
        }
    }

    /// Whether the link works, without spending it.
    func check(token: String) async throws -> RecoveryLink {
        let now = clock.now()
        let owner = try await LinkService.owner(store, token: token)
        return try await EventLog.recordingRefusals(store, now: now, userId: owner.userId, subject: owner.email) {
            try await store.pool.write { db in
                let (link, email) = try Self.liveLink(db, hash: store.digest(token), now: now)
                // Not kept (conform's self-test): checking spends the link.
                if !RulePolicy.current.enforces(.recoveryLinkLive) { try LinkService.spend(db, link, now: now) }
                return RecoveryLink(email: email, expiresAt: Date(unix: link.expiresAt))
            }
        }
    }

    /// A dead link refused here is a `link_expired` event, as at `check`: a client may complete without checking.
    func complete(_ body: RecoveryCompleteBody) async throws -> SignedIn {
        let now = clock.now()
        try PasswordService.refuseOverlong(body.password)
        try DeviceService.validate(body.device)
        let owner = try await LinkService.owner(store, token: body.token)
        return try await EventLog.recordingRefusals(store, now: now, userId: owner.userId, subject: owner.email) {
            try await completing(body, now: now)
        }
    }

    private func completing(_ body: RecoveryCompleteBody, now: Date) async throws -> SignedIn {
        let hash = store.digest(body.token)
        // bcrypt takes tens of milliseconds: the password is checked before the write lock is taken, and
        // everything it relied on is read again in the transaction that writes.
        let stored: (hash: String?, salt: String?) = try await store.pool.read { db in
            let user = try UserRecord.fetchOne(db, key: try Self.liveLink(db, hash: hash, now: now).link.userId)
            return (user?.passwordHash, user?.passwordSalt)
        }
        let presented = body.password
        let matches: Bool
        if let storedHash = stored.hash {
            matches = PasswordHasher.verify(presented, stored: storedHash, legacySalt: stored.salt)
        } else {
            _ = PasswordHasher.verify(presented, stored: Self.decoyHash, legacySalt: nil)
            matches = false
        }
        enum Outcome {
            case signedIn(SignedIn)
            case refused(lock: TimeInterval?)
        }
        // A failure is counted in a committed write, so it is returned, not thrown.
        let outcome: Outcome = try await store.pool.write { db in
            let (link, email) = try Self.liveLink(db, hash: hash, now: now)
            let key = LoginThrottleService.key(email, digest: store.digest)
            try LoginThrottleService.refuseIfLocked(db, key: key, now: now)
            guard matches,
                let user = try UserRecord.filter(sql: "id = ? AND deleted_at IS NULL", arguments: [link.userId])
                    .fetchOne(db),
                user.passwordHash == stored.hash
            else {
                let lock = try LoginThrottleService.recordFailure(db, key: key, now: now)
                if let lock {
                    try LoginThrottleService.noticeLockout(
                        db, email: email, purpose: Self.purpose, lock: lock, now: now)
                }
                return .refused(lock: lock)
            }
            try LoginThrottleService.clear(db, key: key)
            try LinkService.spend(db, link, now: now)
            // The link reached the address: that proves it, as the registration link would have.
            try db.execute(sql: "UPDATE users SET email_unverified = 0 WHERE id = ?", arguments: [user.id])
            try OnboardingService.emailVerified(db, userId: user.id)
            if let current = user.passwordHash, PasswordHasher.needsUpgrade(current) {
                try PasswordService.upgrade(db, userId: user.id, password: presented)
            }
            return .signedIn(
                try SignInService.finish(
                    db, digest: store.digest, user: user, isNew: false, device: body.device,
                    access: RulePolicy.current.enforces(.recoverySignedInLimited) ? .limited : .full, method: .recovery,
                    now: now))
        }
        switch outcome {
        case .signedIn(let signedIn):
            return signedIn
        case .refused(let lock?):
            throw LoginThrottleService.lockedError(retryAfter: lock, rule: .recoveryLocked)
        case .refused(nil):
            var error = PasswordLoginService.credentialsInvalid
            error.rule = .recoveryCredentialsInvalid
            throw error
        }
    }

    /// The right code for reverify_phone (OTPService): the phone is the account's, this session gets full
    /// access, every other session ends, and the account's email is told.
    static func finishReverification(
        _ db: Database, user: UserRecord, phone: String, accessHash: String, now: Date
    ) throws {
        try db.execute(sql: "UPDATE users SET phone = ? WHERE id = ?", arguments: [phone, user.id])
        try SessionService.grantFullAccess(db, accessHash: accessHash)
        _ = try SessionService.revokeAll(db, userId: user.id, keeping: accessHash, reason: .recovery, now: now)
        if let email = user.email {
            try OutboxService.send(
                db,
                .init(channel: .email, recipient: email, kind: .recoveryCompletedNotice, purpose: purpose),
                now: now)
        }
    }

    /// Seed 003's copy for either limit ("Email Recovery Errors").
    static let rateLimitedMessage = "For security reasons, please wait before requesting another recovery."

    /// Seed 003's limits on recovery emails: 30 s apart, 5 per rolling 24 h, per address.
    /// Its own limits per address, and the caps across destinations of every send (`RateLimitService`).
    private static func refuseIfTooManyRequests(
        _ db: Database, email: String, emailKey: String, ip: String?, now: Date
    ) throws {
        let t = now.unix
        let today = try Double.fetchAll(
            db,
            sql:
                "SELECT requested_at FROM recovery_requests WHERE email_key = ? AND requested_at > ? ORDER BY requested_at",
            arguments: [emailKey, t - RecoveryLimits.dailyWindow])
        var refusals: [RateLimitService.Refusal] = []
        if let last = today.last, t - last < SendLimits.cooldown, RulePolicy.current.enforces(.recoveryCooldown) {
            refusals.append(
                .init(
                    retryAfter: last + SendLimits.cooldown - t, limit: .cooldown, message: rateLimitedMessage,
                    rule: .recoveryCooldown))
        }
        if today.count >= RecoveryLimits.maxRequestsPerDay, RulePolicy.current.enforces(.recoveryDailyCap) {
            let freed = today[today.count - RecoveryLimits.maxRequestsPerDay] + RecoveryLimits.dailyWindow
            refusals.append(
                .init(retryAfter: freed - t, limit: .dailyCap, message: rateLimitedMessage, rule: .recoveryDailyCap))
        }
        let caps = try RateLimitService.capRefusals(
            db, requester: RateLimitService.Requester(account: nil, clientAddress: ip), now: now)
        try RateLimitService.refuse(
            refusals + caps, send: .init(channel: .email, recipient: email, purpose: Self.purpose))
    }

    /// An account can be recovered by email only when it has a password to prove it with.
    private static func recoverableAccount(_ db: Database, email: String) throws -> UserRecord? {
        guard let user = try SignInService.owner(db, channel: .email, destination: email), user.passwordHash != nil
        else { return nil }
        return user
    }

    /// A new link; the account's earlier ones stop working. The phone is told, in case it was not its owner.
    private func sendLink(_ db: Database, account: UserRecord, now: Date) throws {
        guard let email = account.email else { return }
        try links.issue(db, .recovery, userId: account.id, to: email, now: now)
        if let phone = account.phone {
            try OutboxService.send(
                db, .init(channel: .sms, recipient: phone, kind: .recoveryStartedNotice, purpose: Self.purpose),
                now: now)
        }
    }

    /// 404 for a token never issued; 410 for one used, replaced by a newer link, or past its lifetime.
    private static func liveLink(_ db: Database, hash: String, now: Date) throws -> (link: LinkRecord, email: String) {
        try LinkService.liveAddress(db, tokenHash: hash, [.recovery], now: now)
    }
}
