import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Two-factor authentication (issue 31): an authenticator app's codes (`TOTP`: RFC 6238, 6 digits, 30 s,
/// one step of drift either side) and 10 one-time recovery codes. Each rule is one function over one write
/// transaction. The secret is sealed under the store's key (`Store.twoFactorSealer`), recovery codes are
/// keyed digests like tokens, and the step of the last accepted code is kept so no code works twice. Wrong
/// codes count per account (`TwoFactorRecord.wrongAttempts`), across its sessions, its recovery codes and its
/// authenticator re-auths: signing in again does not start the count over. The numbers are `TwoFactorLimits`
/// (AccessCore), which the app words its screens from.
struct TwoFactorService: Sendable {
    let store: Store
    let clock: BackendClock

    // MARK: - Refusals

    /// The gate (`SessionService.authenticateSession`): a session that passed one factor of two.
    static let required = BackendError(
        .forbidden, "second_factor_required",
        "Enter the code from your authenticator app to finish signing in.",
        rule: .twoFactorRequired)
    static let notEnabled = BackendError(
        .conflict, "two_factor_not_enabled", "Two-factor authentication is off for this account.",
        rule: .twoFactorNotEnabled)
    static let alreadyEnabled = BackendError(
        .conflict, "two_factor_enabled", "Two-factor authentication is already on. Turn it off first.",
        rule: .twoFactorAlreadyEnabled)
    static let setupNotFound = BackendError(
        .notFound, "two_factor_setup_not_found", "This setup has ended. Start setting up again.",
        rule: .twoFactorSetupNotFound)

    /// A code or recovery code refused. `locked`: this very one locked the step (the 5th in a row), for that
    /// long; the client shows the wait at once (the contract's Lockouts).
    static func wrongCode(
        remaining: Int, locked: TimeInterval?, rule: Rule, message: String
    )
        -> BackendError
    {
        var error = BackendError(
            .unauthorized, "code_incorrect", locked == nil ? message : lockedMessage,
            rule: locked == nil ? rule : .twoFactorLocked)
        error.detail.attemptsRemaining = remaining
        error.detail.retryAfter = locked.map { max(1, Int($0.rounded(.up))) }
        return error
    }

    static let lockedMessage = "Too many wrong codes. Try again in \(RuleText.duration(TwoFactorLimits.lockout))."

    // MARK: - Reading

    /// `GET /me/two-factor`.
    func status(user: UserRecord) async throws -> TwoFactorStatus {
        try await store.pool.read { db in
            let user = try AccountService.current(db, id: user.id)
            return TwoFactorStatus(
                enabled: user.hasTwoFactor, enabledAt: user.twoFactorEnabledAt.map { Date(unix: $0) },
                recoveryCodesRemaining: try Self.recoveryCodesRemaining(db, userId: user.id))
        }
    }

    // MARK: - Setting up, regenerating, turning off

    /// `POST /me/two-factor/setup`: a new secret, pending for `TwoFactorLimits.pendingSetupLifetime`; it replaces
    /// a pending one. Shown once, in this answer.
    func startSetup(user: UserRecord, reauth: ReauthProof) async throws -> TwoFactorSetup {
        let now = clock.now()
        let totp = TOTP.random()
        return try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            if user.hasTwoFactor, RulePolicy.current.enforces(.twoFactorAlreadyEnabled) { throw Self.alreadyEnabled }
            // Setting up changes no sign-in method: any factor verifies it (`target` nil).
            try ReauthService.require(db, digest: store.digest, proof: reauth, user: user, target: nil, now: now)
            let expiresAt = now.addingTimeInterval(TwoFactorLimits.pendingSetupLifetime)
            // Not kept (the replacing alone): a pending setup stays, and the secret answered is not the one it takes.
            let replaces = RulePolicy.current.enforces(.twoFactorSetupStarted, .pendingSetupReplaced)
            try TwoFactorSetupRecord(
                userId: user.id, secretSealed: try store.twoFactorSealer.seal(Data(totp.secret)),
                expiresAt: expiresAt.unix, wrongAttempts: 0
            ).insert(db, onConflict: replaces ? .replace : .ignore)
            let account = user.email ?? user.phone ?? user.id
            // Not kept: the URI names another secret than the one shown.
            let shown = RulePolicy.current.enforces(.twoFactorSetupStarted) ? totp : TOTP.random()
            return TwoFactorSetup(
                secret: totp.base32, otpauthUri: shown.uri(issuer: TwoFactorLimits.issuer, account: account),
                expiresAt: expiresAt)
        }
    }

    /// `POST /me/two-factor/confirm`: the pending secret's first code turns two-factor on and makes the
    /// recovery codes; the session that proved it is aal2 from now on (its other sessions pass the second
    /// step on their next call). `TwoFactorLimits.maxWrongCodes` wrong codes end the pending setup.
    func confirm(user: UserRecord, accessHash: String?, code: String) async throws -> RecoveryCodes {
        let now = clock.now()
        // Wrong codes must be committed, so refusals are returned, not thrown (a throw rolls back).
        let outcome: Result<RecoveryCodes, BackendError> = try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            if user.hasTwoFactor { throw Self.alreadyEnabled }
            guard var setup = try TwoFactorSetupRecord.fetchOne(db, key: user.id),
                setup.expiresAt > now.unix,
                let secret = store.twoFactorSealer.open(setup.secretSealed)
            else { throw Self.setupNotFound }
            let totp = TOTP(secret: Array(secret))
            guard let step = totp.matchingStep(of: code, at: now) else {
                setup.wrongAttempts += 1
                let remaining = max(0, TwoFactorLimits.maxWrongCodes - setup.wrongAttempts)
                if remaining == 0 { try setup.delete(db) } else { try setup.update(db) }
                return .failure(
                    Self.wrongCode(
                        remaining: remaining, locked: nil,
                        rule: remaining == 0 ? .twoFactorSetupExhausted : .twoFactorCodeIncorrect,
                        message: remaining == 0
                            ? "Code is incorrect. Start setting up again." : "Code is incorrect. Try again."))
            }
            try setup.delete(db)
            let codes = try Self.enable(
                db, store: store, userId: user.id, secret: totp,
                // Not kept: the first code's step is forgotten, so that code passes a sign-in's step afterwards.
                lastStep: RulePolicy.current.enforces(.twoFactorEnabled, .enablingStepRecorded) ? step : nil,
                recoveryCodes: nil, now: now)
            if let accessHash {
                try db.execute(
                    sql: "UPDATE sessions SET assurance = ? WHERE access_hash = ?",
                    arguments: [AssuranceLevel.aal2, accessHash])
            }
            if !RulePolicy.current.enforces(.twoFactorEnabled) {
                // Not kept: the account's other sessions skip the second step.
                try db.execute(
                    sql: "UPDATE sessions SET assurance = ? WHERE user_id = ?",
                    arguments: [AssuranceLevel.aal2, user.id])
            }
            try Self.notify(
                db, user: user, kind: .twoFactorEnabledNotice, purpose: "two_factor", now: now)
            try EventLog.append(db, .init(kind: .twoFactorOn, userId: user.id, rule: .twoFactorEnabled), now: now)
            return .success(RecoveryCodes(recoveryCodes: codes))
        }
        return try outcome.get()
    }

    /// Two-factor on for `userId` with `secret`: the confirmation of a setup, and a scenario's fixture, store
    /// it the same way. `recoveryCodes` nil: new ones. Returns the codes, which nothing keeps but as digests.
    static func enable(
        _ db: Database, store: Store, userId: String, secret: TOTP, lastStep: Int64?,
        recoveryCodes: [String]?,
        now: Date
    ) throws -> [String] {
        try TwoFactorRecord(
            userId: userId, secretSealed: try store.twoFactorSealer.seal(Data(secret.secret)),
            lastStep: lastStep,
            wrongAttempts: 0, lockedUntil: nil
        ).insert(db, onConflict: .replace)
        try db.execute(
            sql: "UPDATE users SET two_factor_enabled_at = ? WHERE id = ?", arguments: [now.unix, userId])
        return try replaceRecoveryCodes(db, digest: store.digest, userId: userId, with: recoveryCodes)
    }

    /// `POST /me/two-factor/recovery-codes`: new codes; every old one stops working.
    func regenerateRecoveryCodes(user: UserRecord, reauth: ReauthProof) async throws -> RecoveryCodes {
        let now = clock.now()
        return try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            guard user.hasTwoFactor else { throw Self.notEnabled }
            try ReauthService.require(db, digest: store.digest, proof: reauth, user: user, target: nil, now: now)
            // Not kept: new codes are shown, and the old ones still work.
            guard RulePolicy.current.enforces(.twoFactorRecoveryCodesRegenerated) else {
                return RecoveryCodes(
                    recoveryCodes: (0..<TwoFactorLimits.recoveryCodeCount).map { _ in Secrets.recoveryCode() })
            }
            return RecoveryCodes(
                recoveryCodes: try Self.replaceRecoveryCodes(
                    db, digest: store.digest, userId: user.id, with: nil))
        }
    }

    /// `DELETE /me/two-factor`: the secret, the codes and any pending setup go; the email is told.
    func disable(user: UserRecord, reauth: ReauthProof) async throws {
        let now = clock.now()
        try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            guard user.hasTwoFactor else { throw Self.notEnabled }
            try ReauthService.require(db, digest: store.digest, proof: reauth, user: user, target: nil, now: now)
            guard RulePolicy.current.enforces(.twoFactorDisabled) else { return }
            // Not kept (the deleting alone): two-factor is off, and the secret, the codes and a setup stay behind.
            if RulePolicy.current.enforces(.twoFactorDisabled, .secretsDeleted) {
                for table in ["two_factor", "two_factor_setups", "recovery_codes"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [user.id])
                }
            }
            try db.execute(
                sql: "UPDATE users SET two_factor_enabled_at = NULL WHERE id = ?", arguments: [user.id])
            try Self.notify(
                db, user: user, kind: .twoFactorDisabledNotice, purpose: "two_factor", now: now)
            try EventLog.append(db, .init(kind: .twoFactorOff, userId: user.id, rule: .twoFactorDisabled), now: now)
        }
    }

    // MARK: - The second step

    /// `POST /auth/two-factor/verify`: the authenticator's code raises the session to aal2, with new tokens.
    func verify(
        session: SessionService.Authenticated, accessHash: String, code: String
    ) async throws
        -> SignedIn
    {
        let now = clock.now()
        let outcome: Result<SignedIn, BackendError> = try await store.pool.write { db in
            let user = try AccountService.current(db, id: session.user.id)
            if let refusal = try Self.checkCode(db, userId: user.id, code: code, store: store, now: now) {
                return .failure(refusal)
            }
            return .success(
                try Self.secondStepPassed(
                    db, store: store, user: user, session: session, accessHash: accessHash, now: now))
        }
        return try outcome.get()
    }

    /// `POST /auth/two-factor/recovery`: a recovery code instead, spent by this call. One write transaction
    /// reads and spends it, so of two requests with the same code exactly one gets in.
    func useRecoveryCode(
        session: SessionService.Authenticated, accessHash: String, typed: String
    ) async throws -> SignedIn {
        let now = clock.now()
        let outcome: Result<SignedIn, BackendError> = try await store.pool.write { db in
            let user = try AccountService.current(db, id: session.user.id)
            var record = try Self.record(db, userId: user.id)
            try Self.refuseIfLocked(record, now: now)
            let spent =
                try TwoFactorLimits.normalizedRecoveryCode(typed).map { normalized in
                    let hash = Self.digest(normalized, userId: user.id, store.digest)
                    // Not kept: the code passes and stays unspent.
                    guard RulePolicy.current.enforces(.twoFactorRecoveryCodeUsed) else {
                        return try Bool.fetchOne(
                            db,
                            sql: "SELECT EXISTS(SELECT 1 FROM recovery_codes WHERE code_hash = ? AND used_at IS NULL)",
                            arguments: [hash]) ?? false
                    }
                    try db.execute(
                        sql:
                            "UPDATE recovery_codes SET used_at = ? WHERE code_hash = ? AND user_id = ? AND used_at IS NULL",
                        arguments: [now.unix, hash, user.id])
                    return db.changesCount == 1
                } ?? false
            guard spent else {
                return .failure(
                    try Self.countWrong(
                        db, &record, now: now, rule: .twoFactorRecoveryCodeInvalid,
                        message: "That recovery code doesn't work. Check it and try again."))
            }
            let remaining = try Self.recoveryCodesRemaining(db, userId: user.id)
            try Self.notify(
                db, user: user, kind: .recoveryCodeUsedNotice, purpose: "remaining:\(remaining)", now: now)
            try EventLog.append(
                db, .init(kind: .recoveryCodeUsed, userId: user.id, detail: ["remaining": "\(remaining)"]), now: now)
            return .success(
                try Self.secondStepPassed(
                    db, store: store, user: user, session: session, accessHash: accessHash, now: now))
        }
        return try outcome.get()
    }

    /// "Verify it's you" with the authenticator: the second step's rules, then a grant like the other methods'.
    /// `accessHash`: the request's session, which the grant will belong to.
    func reauth(user: UserRecord, accessHash: String?, code: String) async throws -> ReauthGrant {
        let now = clock.now()
        let outcome: Result<ReauthGrant, BackendError> = try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            guard user.hasTwoFactor else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no authenticator app.",
                    rule: .reauthMethodUnavailable)
            }
            if let refusal = try Self.checkCode(db, userId: user.id, code: code, store: store, now: now) {
                return .failure(refusal)
            }
            return .success(
                try ReauthService.issue(
                    db, store: store, userId: user.id, accessHash: accessHash, method: .authenticator, now: now))
        }
        return try outcome.get()
    }

    /// QA's "Authenticator: current code" (`GET /_admin/two-factor/code`): what the app would show now on the
    /// backend's clock. Never the secret itself.
    func currentCode(userId: String) async throws -> TwoFactorCode {
        let now = clock.now()
        let secret = try await store.pool.read { db in
            try TwoFactorRecord.fetchOne(db, key: userId).flatMap {
                store.twoFactorSealer.open($0.secretSealed)
            }
        }
        guard let secret else {
            throw BackendError(
                .notFound, "two_factor_not_enabled", "That account has no two-factor authentication.",
                rule: .adminNoTwoFactor)
        }
        let totp = TOTP(secret: Array(secret))
        return TwoFactorCode(
            code: totp.code(at: now), secondsLeft: TOTP.secondsLeft(at: now), step: TOTP.step(at: now))
    }

    // MARK: - Rules shared by the steps

    /// The account's two-factor row, or 409 `two_factor_not_enabled`: there is no second step to pass.
    private static func record(_ db: Database, userId: String) throws -> TwoFactorRecord {
        guard let record = try TwoFactorRecord.fetchOne(db, key: userId) else { throw notEnabled }
        return record
    }

    private static func refuseIfLocked(_ record: TwoFactorRecord, now: Date) throws {
        guard let until = record.lockedUntil, until > now.unix else { return }
        throw BackendError.rateLimited(
            retryAfter: max(1, Int((until - now.unix).rounded(.up))), limit: .twoFactorAttempts,
            message: "Too many wrong codes. Wait before trying again.")
    }

    /// nil when `code` is the authenticator's for a step after the last accepted one (now, or one step either
    /// side), which it then records; otherwise the refusal, with the wrong code counted.
    private static func checkCode(
        _ db: Database, userId: String, code: String, store: Store, now: Date
    ) throws -> BackendError? {
        var record = try record(db, userId: userId)
        try refuseIfLocked(record, now: now)
        guard let secret = store.twoFactorSealer.open(record.secretSealed) else {
            throw BackendError(
                .internalServerError, "internal", "The authenticator's secret does not open.",
                rule: .httpInternal)
        }
        let step = TOTP(secret: Array(secret)).matchingStep(of: code, at: now)
        guard let step, step > record.lastStep ?? .min else {
            // A code accepted once, or an older one, is refused like a wrong one: seen once, it is spent.
            return try countWrong(
                db, &record, now: now, rule: step == nil ? .twoFactorCodeIncorrect : .twoFactorCodeReplayed,
                message: "Code is incorrect. Try again.")
        }
        record.lastStep = step
        record.wrongAttempts = 0
        record.lockedUntil = nil
        try record.update(db)
        return nil
    }

    /// One more wrong code for the account; the `TwoFactorLimits.maxWrongCodes`-th locks the step for
    /// `TwoFactorLimits.lockout`. A lock that has run out starts the count over.
    private static func countWrong(
        _ db: Database, _ record: inout TwoFactorRecord, now: Date, rule: Rule, message: String
    ) throws -> BackendError {
        if let until = record.lockedUntil, until <= now.unix {
            record.wrongAttempts = 0
            record.lockedUntil = nil
        }
        record.wrongAttempts += 1
        let remaining = max(0, TwoFactorLimits.maxWrongCodes - record.wrongAttempts)
        if remaining == 0 { record.lockedUntil = now.unix + TwoFactorLimits.lockout }
        try record.update(db)
        return wrongCode(
            remaining: remaining, locked: remaining == 0 ? TwoFactorLimits.lockout : nil, rule: rule,
            message: message)
    }

    /// Clears the count, rotates the session's tokens to aal2 and answers as a sign-in does.
    private static func secondStepPassed(
        _ db: Database, store: Store, user: UserRecord, session: SessionService.Authenticated,
        accessHash: String,
        now: Date
    ) throws -> SignedIn {
        try db.execute(
            sql: "UPDATE two_factor SET wrong_attempts = 0, locked_until = NULL WHERE user_id = ?",
            arguments: [user.id])
        let deviceId = try SessionRecord.fetchOne(db, key: accessHash)?.deviceId
        let tokens = try SessionService.raiseToSecondFactor(
            db, digest: store.digest, accessHash: accessHash, now: now)
        var profile = try OnboardingService.profile(db, userId: user.id, access: session.access)
        profile.assuranceLevel = .init(.aal2)
        // A QA session (`POST /_admin/session`) has no device; SignedIn names one, so it says none.
        return SignedIn(
            session: tokens, deviceId: deviceId ?? "", isNewUser: false, authMethods: user.authMethods,
            profile: profile, assuranceLevel: .init(.aal2), secondFactorRequired: false)
    }

    // MARK: - Recovery codes

    /// `TwoFactorLimits.recoveryCodeCount` codes (or `given`, a scenario's) in place of the account's old ones.
    private static func replaceRecoveryCodes(
        _ db: Database, digest: TokenDigest, userId: String, with given: [String]?
    ) throws -> [String] {
        try db.execute(sql: "DELETE FROM recovery_codes WHERE user_id = ?", arguments: [userId])
        let codes = given ?? (0..<TwoFactorLimits.recoveryCodeCount).map { _ in Secrets.recoveryCode() }
        for code in codes {
            guard let normalized = TwoFactorLimits.normalizedRecoveryCode(code) else {
                throw BackendError(
                    .internalServerError, "internal", "A recovery code is malformed.", rule: .httpInternal)
            }
            try RecoveryCodeRecord(
                codeHash: Self.digest(normalized, userId: userId, digest), userId: userId, usedAt: nil
            )
            .insert(db)
        }
        return codes
    }

    /// Bound to the account, so one account's digest says nothing of another's codes.
    private static func digest(_ normalized: String, userId: String, _ digest: TokenDigest) -> String {
        digest(normalized, context: "recovery_code:" + userId)
    }

    static func recoveryCodesRemaining(_ db: Database, userId: String) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM recovery_codes WHERE user_id = ? AND used_at IS NULL",
            arguments: [userId])
            ?? 0
    }

    /// Security notices go to the account's email (seed 003's security events); an account without one gets none.
    private static func notify(
        _ db: Database, user: UserRecord, kind: OutboxKind, purpose: String, now: Date
    ) throws {
        guard let email = user.email else { return }
        try OutboxService.send(
            db, .init(channel: .email, recipient: email, kind: kind, purpose: purpose), now: now)
    }
}
