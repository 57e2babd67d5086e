import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Email & password as seed 002 has it, with seed 000's password rules: registering makes an account that
/// cannot sign in until the emailed link (`EmailLink.register`) is opened; logging in says "Invalid email or
/// password" and never which; a resend never tells whether the address has an account waiting. Failed
/// logins wait longer and longer (`LoginThrottleService`).
struct PasswordLoginService: Sendable {
    let store: Store
    let clock: BackendClock
    let linkBase: String

    private var links: LinkService { LinkService(store: store, clock: clock, linkBase: linkBase) }

    static let credentialsInvalid = BackendError(
        .unauthorized, "credentials_invalid", "Invalid email or password", rule: .loginCredentialsInvalid)
    static let emailTaken = BackendError(
        .conflict, "email_taken", "An account with this email already exists", rule: .registerEmailTaken)
    static let resentMessage = "If an account is waiting for this address, we sent it a new link."
    /// What a backend that tells addresses apart would answer (conform's self-tests, `RulePolicy`).
    static let unknownAddress = BackendError(
        .unprocessableContent, "invalid_email", "No account has this address.", rule: .emailInvalid)

    /// What an unknown address's password is checked against, so answering it takes as long as a real check.
    private static let decoyHash = PasswordHasher.hash(Secrets.token(prefix: "decoy_"))

    func register(_ body: RegisterBody) async throws -> Registered {
        let now = clock.now()
        let email = EmailRules.normalized(body.email)
        guard EmailRules.isValid(email) else { throw EmailService.invalidError }
        try DeviceService.validate(body.device)
        try PasswordService.refuseInvalid(body.password, email: email, current: nil)
        // bcrypt takes tens of milliseconds: done before the write lock is taken.
        let passwordHash = PasswordHasher.hash(body.password)
        let requester = RateLimitService.Requester.client(account: nil)
        // A refusal must be committed with its count, so it is returned, not thrown (a throw rolls back).
        let outcome: Result<Registered, BackendError> = try await EventLog.recordingRefusals(
            store, now: now, userId: nil, subject: email
        ) {
            try await store.pool.write { db in
                try store.retention.pruneIfDue(db, now: now)
                // The send limits first, for every address (issue 45 item 7): a taken address answered 409 at once
                // and counted nowhere, so one client could ask about address after address without end. Refused or
                // not, a registration counts as a sent link, per address and per client, as a password reset does.
                try RateLimitService.check(
                    db, channel: .email, recipient: email, purpose: EmailLink.register.rawValue, isResend: false,
                    requester: requester, now: now)
                if let refusal = try Self.refusal(db, digest: store.digest, email: email, now: now) {
                    try RateLimitService.record(
                        db, channel: .email, recipient: email, isResend: false, requester: requester, now: now)
                    return .failure(refusal)
                }
                let user = try SignInService.createUser(db, phone: nil, email: email)
                try PasswordService.set(db, userId: user.id, hash: passwordHash, changedAt: now)
                // Not kept (conform's self-test of `register.link_sent`): the address counts as verified at once.
                try db.execute(
                    sql: "UPDATE users SET email_unverified = ? WHERE id = ?",
                    arguments: [RulePolicy.current.enforces(.registerLinkSent), user.id])
                let expires = try sendLink(
                    db, userId: user.id, email: email, isResend: false, requester: requester, now: now)
                return .success(Registered(email: email, linkExpiresAt: expires))
            }
        }
        return try outcome.get()
    }

    /// Why the address cannot be registered: an account signs in with it, or a deleted one still holds it.
    private static func refusal(_ db: Database, digest: TokenDigest, email: String, now: Date) throws -> BackendError? {
        if try SignInService.owner(db, channel: .email, destination: email) != nil { return emailTaken }
        if let until = try IdentityHoldService.heldUntil(db, digest: digest, email: email, now: now) {
            return IdentityHoldService.emailHeld(until: until)
        }
        return nil
    }

    /// Always the same answer; the send limits count for every address alike.
    func resend(email typed: String) async throws -> VerificationResent {
        let now = clock.now()
        let email = EmailRules.normalized(typed)
        guard EmailRules.isValid(email) else { throw EmailService.invalidError }
        try await EventLog.recordingRefusals(store, now: now, userId: nil, subject: email) {
            try await store.pool.write { db in
                try store.retention.pruneIfDue(db, now: now)
                try RateLimitService.check(
                    db, channel: .email, recipient: email, purpose: EmailLink.register.rawValue, isResend: true,
                    requester: .client(account: nil), now: now)
                guard
                    let waiting = try String.fetchOne(
                        db, sql: "SELECT id FROM users WHERE email = ? AND email_unverified = 1 AND deleted_at IS NULL",
                        arguments: [email])
                else {
                    // Not kept: an address nobody registered is told apart.
                    guard RulePolicy.current.enforces(.registerResendAnswered) else { throw Self.unknownAddress }
                    try RateLimitService.record(
                        db, channel: .email, recipient: email, isResend: true, requester: .client(account: nil),
                        now: now)
                    return
                }
                _ = try sendLink(
                    db, userId: waiting, email: email, isResend: true, requester: .client(account: nil), now: now)
            }
        }
        return VerificationResent(message: Self.resentMessage)
    }

    func confirm(token: String) async throws -> RegistrationConfirmed {
        let now = clock.now()
        let owner = try await LinkService.owner(store, token: token)
        return try await EventLog.recordingRefusals(store, now: now, userId: owner.userId, subject: owner.email) {
            try await store.pool.write { db in
                let (link, email) = try LinkService.liveAddress(
                    db, tokenHash: store.digest(token), [.register], now: now)
                try LinkService.spend(db, link, now: now)
                let userId = link.userId
                if RulePolicy.current.enforces(.registerConfirmed) {
                    try db.execute(
                        sql: "UPDATE users SET email_unverified = 0 WHERE id = ? AND deleted_at IS NULL",
                        arguments: [userId])
                    // Not kept: the address is proven, and an account waiting on verify_email stays there.
                    if RulePolicy.current.enforces(.registerConfirmed, .onboardingStepStored) {
                        try OnboardingService.emailVerified(db, userId: userId)
                    }
                }
                return RegistrationConfirmed(email: email)
            }
        }
    }

    /// A refused login (wrong password, locked, unverified) is an event of the address's timeline.
    func login(_ body: PasswordLoginBody) async throws -> SignedIn {
        let email = EmailRules.normalized(body.email)
        guard EmailRules.isValid(email) else { throw EmailService.invalidError }
        return try await EventLog.recordingRefusals(store, now: clock.now(), userId: nil, subject: email) {
            try await loginRecorded(body, email: email)
        }
    }

    private func loginRecorded(_ body: PasswordLoginBody, email: String) async throws -> SignedIn {
        let now = clock.now()
        try PasswordService.refuseOverlong(body.password)
        try DeviceService.validate(body.device)
        let key = LoginThrottleService.key(email, digest: store.digest)
        let account: (user: UserRecord, unverified: Bool)? = try await store.pool.read { db in
            try LoginThrottleService.refuseIfLocked(db, key: key, now: now)
            guard let user = try SignInService.owner(db, channel: .email, destination: email) else { return nil }
            return (user, user.emailUnverified)
        }
        let matches: Bool
        if let account, let stored = account.user.passwordHash {
            matches = PasswordHasher.verify(body.password, stored: stored, legacySalt: account.user.passwordSalt)
        } else {
            _ = PasswordHasher.verify(body.password, stored: Self.decoyHash, legacySalt: nil)
            matches = false
        }
        enum Outcome {
            case signedIn(SignedIn)
            case unverified
            case refused(lock: TimeInterval?)
        }
        // A failure is counted in a committed write, so it is returned, not thrown.
        let outcome: Outcome = try await store.pool.write { db in
            try LoginThrottleService.refuseIfLocked(db, key: key, now: now)
            guard let account, matches, let user = try SignInService.owner(db, channel: .email, destination: email),
                user.id == account.user.id
            else {
                let lock = try LoginThrottleService.recordFailure(db, key: key, now: now)
                // Only an account's own address is told: a guessed address that has none gets no mail.
                if let lock, let address = account?.user.email {
                    try LoginThrottleService.noticeLockout(db, email: address, purpose: "login", lock: lock, now: now)
                }
                return .refused(lock: lock)
            }
            try LoginThrottleService.clear(db, key: key)
            if account.unverified { return .unverified }
            guard RulePolicy.current.enforces(.loginSignedIn) else { return .refused(lock: nil) }
            if let stored = user.passwordHash, PasswordHasher.needsUpgrade(stored) {
                try PasswordService.upgrade(db, userId: user.id, password: body.password)
            }
            return .signedIn(
                try SignInService.finish(
                    db, digest: store.digest, user: user, isNew: false, device: body.device, method: .password,
                    now: now))
        }
        switch outcome {
        case .signedIn(let signedIn):
            return signedIn
        case .unverified:
            throw BackendError(
                .forbidden, "email_unverified", "Please verify your email. We can send the link again.",
                rule: .loginEmailUnverified)
        case .refused(let lock?):
            throw LoginThrottleService.lockedError(retryAfter: lock, rule: .loginLocked)
        case .refused(nil):
            throw Self.credentialsInvalid
        }
    }

    /// A new link for the registration; those sent before stop working.
    func sendLink(
        _ db: Database, userId: String, email: String, isResend: Bool, requester: RateLimitService.Requester,
        now: Date
    ) throws -> Date {
        let expires = try links.issue(db, .register, userId: userId, to: email, now: now)
        try RateLimitService.record(
            db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
        return expires
    }
}
