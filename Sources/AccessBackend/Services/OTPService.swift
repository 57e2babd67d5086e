import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Phone one-time codes (seed 000): 6 digits, 5-minute TTL, 5 wrong codes kill a code, one use.
/// Limits on how often codes are sent live in `RateLimitService`.
struct OTPService: Sendable {
    static let ttl = CodeRules.lifetime
    static let maxWrongAttempts = CodeRules.maxWrongAttempts

    let store: Store
    let clock: BackendClock

    static let expired = BackendError(.gone, "code_expired", "Code expired. Request a new one.", rule: .otpExpired)

    func request(
        user: UserRecord, access: AccessLevel, body: RequestOTPBody, reauth: ReauthProof
    ) async throws -> OTPRequestAccepted {
        let now = clock.now()
        try Self.refuseForAccess(access, purpose: body.purpose)
        return try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            // Read here, not at authentication: the phone and the methods may have changed since.
            let user = try AccountService.current(db, id: user.id)
            if body.purpose == .changePhone {
                try ReauthService.require(db, digest: store.digest, proof: reauth, user: user, target: .phone, now: now)
            }
            guard let phone = PhoneNumberRules.normalizeE164(body.phone) else {
                throw BackendError(
                    .unprocessableContent, "phone_invalid", "Enter a valid phone number.", rule: .phoneInvalid)
            }
            try Self.checkTarget(db, phone: phone, purpose: body.purpose, user: user)
            if body.purpose != .reauth {
                try IdentityHoldService.refuseIfHeld(db, digest: store.digest, phone: phone, now: now)
            }
            // A new request while one is live for the same number is a resend in disguise: it counts as one.
            let live = try String.fetchAll(
                db, sql: "SELECT id FROM otp_requests WHERE user_id = ? AND phone = ? AND state = ? AND expires_at > ?",
                arguments: [user.id, phone, CodeState.open, now.unix])
            let isResend = !live.isEmpty
            try RateLimitService.check(
                db, channel: .sms, recipient: phone, isResend: isResend, requester: .client(account: user.id), now: now)
            for id in live where RulePolicy.current.enforces(.otpSent) {
                try OutboxService.endCode(db, request: id, state: .open, expiresAt: .infinity, now: now)
                try Self.setState(db, id: id, .cancelled)
            }
            let id = Secrets.identifier(prefix: "otp_")
            let code = try Self.newCode(db, phone: phone)
            try OTPRequestRecord(
                id: id, userId: user.id, phone: phone, purpose: body.purpose, codeHash: store.digest(code, context: id),
                createdAt: now.unix, expiresAt: now.unix + Self.ttl, resendAfter: now.unix + RateLimitService.cooldown
            ).insert(db)
            try deliver(
                db, requestId: id, phone: phone, code: code, purpose: body.purpose, isResend: isResend,
                userId: user.id, now: now)
            return OTPRequestAccepted(
                requestId: id, phone: phone, purpose: .init(body.purpose), expiresAt: now.addingTimeInterval(Self.ttl),
                resendAfter: now.addingTimeInterval(RateLimitService.cooldown))
        }
    }

    func resend(user: UserRecord, access: AccessLevel, requestId: String) async throws -> OTPRequestAccepted {
        let now = clock.now()
        return try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let request = try Self.fetch(db, id: requestId, userId: user.id)
            try Self.refuseForAccess(access, purpose: request.purpose)
            // A dead (5 wrong) or timed-out code may be replaced; a used or cancelled one may not.
            guard request.state.isResendable else {
                throw BackendError(
                    .gone, "request_closed", "This code request is closed. Start again.", rule: .otpRequestClosed)
            }
            let phone = request.phone
            let purpose = request.purpose
            try RateLimitService.check(
                db, channel: .sms, recipient: phone, isResend: true, requester: .client(account: user.id), now: now)
            try OutboxService.endCode(
                db, request: requestId, state: request.state, expiresAt: request.expiresAt, now: now)
            let code = try Self.newCode(db, phone: phone)
            var renewed = request
            // Not kept: the new code goes out, and the last one is still the one that works.
            if RulePolicy.current.enforces(.otpResent) { renewed.codeHash = store.digest(code, context: requestId) }
            renewed.expiresAt = now.unix + Self.ttl
            renewed.resendAfter = now.unix + RateLimitService.cooldown
            renewed.wrongAttempts = 0
            renewed.state = .open
            try renewed.update(db)
            try deliver(
                db, requestId: requestId, phone: phone, code: code, purpose: purpose, isResend: true,
                userId: user.id, now: now)
            return OTPRequestAccepted(
                requestId: requestId, phone: phone, purpose: .init(purpose),
                expiresAt: now.addingTimeInterval(Self.ttl),
                resendAfter: now.addingTimeInterval(RateLimitService.cooldown))
        }
    }

    /// Back on the OTP screen: the code stops working at once.
    func cancel(user: UserRecord, access: AccessLevel, requestId: String) async throws -> OTPCancelled {
        try await store.pool.write { db in
            let request = try Self.fetch(db, id: requestId, userId: user.id)
            try Self.refuseForAccess(access, purpose: request.purpose)
            if request.state == .used {
                throw BackendError(
                    .gone, "request_closed", "This code was already used.", rule: .otpRequestClosed)
            }
            if RulePolicy.current.enforces(.otpCancelled) { try Self.setState(db, id: requestId, .cancelled) }
            return OTPCancelled(requestId: requestId)
        }
    }

    /// `accessHash`: the session verifying, which a reverify_phone code gives full access and a reauth code a
    /// grant of its own.
    func verify(
        user: UserRecord, access: AccessLevel, accessHash: String?, body: VerifyOTPBody, reauthToken: String?
    ) async throws -> VerifyOTPResult {
        let now = clock.now()
        enum Outcome {
            case done(VerifyOTPResult)
            case wrong(remaining: Int)
        }
        // Wrong attempts must be committed, so they are returned, not thrown (a throw rolls back).
        let outcome: Outcome = try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            let request = try Self.fetch(db, id: body.requestId, userId: user.id)
            guard request.state == .open, request.expiresAt > now.unix || !RulePolicy.current.enforces(.otpExpired)
            else {
                throw Self.expired
            }
            let purpose = request.purpose
            // Read in this transaction: another request may have re-verified meanwhile.
            try Self.refuseForAccess(try SessionService.access(db, accessHash: accessHash), purpose: purpose)
            if purpose == .changePhone {
                try ReauthService.require(
                    db, digest: store.digest, proof: ReauthProof(token: reauthToken, accessHash: accessHash),
                    user: user, target: .phone, now: now)
            }
            let presented = store.digest(body.code, context: body.requestId)
            guard Secrets.constantTimeEquals(presented, request.codeHash) else {
                var wrong = request
                wrong.wrongAttempts += 1
                wrong.state = wrong.wrongAttempts >= Self.maxWrongAttempts ? .dead : .open
                try wrong.update(db)
                return .wrong(remaining: Self.maxWrongAttempts - wrong.wrongAttempts)
            }
            try Self.setState(db, id: body.requestId, .used)
            let phone = request.phone
            switch purpose {
            case .reauth:
                let grant = try ReauthService.issue(
                    db, store: store, userId: user.id, accessHash: accessHash, method: .phone, now: now)
                return .done(VerifyOTPResult(purpose: .init(purpose), reauth: grant))
            case .reverifyPhone:
                // The number could have been taken, or held, while the code was in flight.
                if try AccountService.phoneTaken(db, phone: phone, by: user.id) { throw AccountService.phoneTakenError }
                try IdentityHoldService.refuseIfHeld(db, digest: store.digest, phone: phone, now: now)
                guard let accessHash else { throw BackendError.unauthorized }
                try RecoveryService.finishReverification(
                    db, user: user, phone: phone, accessHash: accessHash, now: now)
                let updated = try UserRecord.fetchOne(db, key: user.id)
                return .done(VerifyOTPResult(purpose: .init(purpose), authMethods: updated?.authMethods))
            case .changePhone, .addPhone:
                // The number could have been taken while the code was in flight.
                if try AccountService.phoneTaken(db, phone: phone, by: user.id) { throw AccountService.phoneTakenError }
                try IdentityHoldService.refuseIfHeld(db, digest: store.digest, phone: phone, now: now)
                if RulePolicy.current.enforces(.otpVerified) {
                    try db.execute(sql: "UPDATE users SET phone = ? WHERE id = ?", arguments: [phone, user.id])
                }
                let updated = try UserRecord.fetchOne(db, key: user.id)
                return .done(VerifyOTPResult(purpose: .init(purpose), authMethods: updated?.authMethods))
            }
        }
        switch outcome {
        case .done(let result):
            return result
        case .wrong(let remaining):
            var error = BackendError(
                .unauthorized, "code_incorrect", "Code is incorrect. Try again.",
                rule: remaining == 0 ? .otpCodeIncorrectExhausted : .otpCodeIncorrect)
            error.detail.attemptsRemaining = remaining
            throw error
        }
    }

    private static func checkTarget(_ db: Database, phone: String, purpose: OTPPurpose, user: UserRecord) throws {
        switch purpose {
        case .reauth:
            guard let own = user.phone else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no phone number.",
                    rule: .reauthMethodUnavailable)
            }
            guard own == phone else {
                throw BackendError(
                    .unprocessableContent, "phone_mismatch", "Use the phone number on your account.",
                    rule: .reauthPhoneMismatch)
            }
        case .reverifyPhone:
            // The account's own number or a new one nobody else has (seed 003: "re-verify the phone").
            if try AccountService.phoneTaken(db, phone: phone, by: user.id) { throw AccountService.phoneTakenError }
        case .changePhone, .addPhone:
            if user.phone == phone {
                throw BackendError(
                    .unprocessableContent, "phone_unchanged", "This is already your number.", rule: .phoneUnchanged)
            }
            if try AccountService.phoneTaken(db, phone: phone, by: user.id) { throw AccountService.phoneTakenError }
        }
    }

    /// A limited session (recovered by email) may only re-verify a phone, and only it has one to re-verify.
    private static func refuseForAccess(_ access: AccessLevel, purpose: OTPPurpose) throws {
        switch (access, purpose) {
        case (.limited, .reverifyPhone), (.full, .reauth), (.full, .changePhone), (.full, .addPhone):
            return
        case (.limited, _):
            throw RecoveryService.limitedAccess
        case (.full, .reverifyPhone):
            throw BackendError(
                .unprocessableContent, "invalid_field",
                "purpose: reverify_phone is only for a session that recovered the account by email; this one has full access.",
                rule: .otpReverifyNotLimited)
        }
    }

    /// The account's own request, or 404: another account's request id says nothing either.
    private static func fetch(_ db: Database, id: String, userId: String) throws -> OTPRequestRecord {
        guard let request = try OTPRequestRecord.fetchOne(db, key: id), request.userId == userId else {
            throw BackendError(
                .notFound, "otp_request_not_found", "This code request does not exist.", rule: .otpRequestUnknown)
        }
        return request
    }

    private static func setState(_ db: Database, id: String, _ state: CodeState) throws {
        try db.execute(sql: "UPDATE otp_requests SET state = ? WHERE id = ?", arguments: [state, id])
    }

    /// Scenario test codes win for their numbers; everything else gets a fresh CSPRNG code.
    private static func newCode(_ db: Database, phone: String) throws -> String {
        try TestCodeRecord.fetchOne(db, key: phone)?.code ?? Secrets.otpCode()
    }

    private func deliver(
        _ db: Database, requestId: String, phone: String, code: String, purpose: OTPPurpose, isResend: Bool,
        userId: String, now: Date
    ) throws {
        try RateLimitService.record(
            db, channel: .sms, recipient: phone, isResend: isResend, requester: .client(account: userId), now: now)
        try OutboxService.send(
            db,
            .init(
                channel: .sms, recipient: phone, kind: .otp, purpose: purpose.rawValue, code: code,
                requestId: requestId),
            sealedWith: store.outboxSealer, now: now)
    }
}
