import AccessAPI
import AccessCore
import Foundation
import GRDB

/// The phone codes of a signed-in account (seed 000): what each purpose checks before a code goes out and does
/// once the right one comes back. The code itself, its lifetime, tries, resends and send limits, is `CodeService`'s,
/// as every 6-digit code's is.
struct OTPService: Sendable {
    let store: Store
    let clock: BackendClock

    private var codes: CodeService { CodeService(store: store) }

    /// A refused send (a limit) is an event of the account's timeline.
    func request(
        user: UserRecord, access: AccessLevel, body: RequestOTPBody, reauth: ReauthProof
    ) async throws -> OTPRequestAccepted {
        try await EventLog.recordingRefusals(
            store, now: clock.now(), userId: user.id, subject: PhoneNumberRules.normalizeE164(body.phone)
        ) {
            try await requestRecorded(user: user, access: access, body: body, reauth: reauth)
        }
    }

    private func requestRecorded(
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
            let issued = try codes.issue(
                db, purpose: CodePurpose(body.purpose), userId: user.id, channel: .phone, destination: phone, now: now)
            return OTPRequestAccepted(
                requestId: issued.id, phone: phone, purpose: .init(body.purpose), expiresAt: issued.expiresAt,
                resendAfter: issued.resendAfter)
        }
    }

    func resend(user: UserRecord, access: AccessLevel, requestId: String) async throws -> OTPRequestAccepted {
        let now = clock.now()
        return try await EventLog.recordingRefusals(store, now: now, userId: user.id, subject: nil) {
            try await resendRecorded(user: user, access: access, requestId: requestId, now: now)
        }
    }

    private func resendRecorded(
        user: UserRecord, access: AccessLevel, requestId: String, now: Date
    ) async throws -> OTPRequestAccepted {
        try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let request = try Self.fetch(db, id: requestId, userId: user.id)
            let purpose = try Self.purpose(of: request)
            try Self.refuseForAccess(access, purpose: purpose)
            let issued = try codes.renew(db, request, now: now)
            return OTPRequestAccepted(
                requestId: requestId, phone: request.destination, purpose: .init(purpose),
                expiresAt: issued.expiresAt, resendAfter: issued.resendAfter)
        }
    }

    /// Back on the OTP screen: the code stops working at once.
    func cancel(user: UserRecord, access: AccessLevel, requestId: String) async throws -> OTPCancelled {
        try await store.pool.write { db in
            let request = try Self.fetch(db, id: requestId, userId: user.id)
            try Self.refuseForAccess(access, purpose: try Self.purpose(of: request))
            if request.state == .used {
                throw BackendError(
                    .gone, "request_closed", "This code was already used.", rule: .otpRequestClosed)
            }
            if RulePolicy.current.enforces(.otpCancelled) { try CodeService.setState(db, id: requestId, .cancelled) }
            return OTPCancelled(requestId: requestId)
        }
    }

    /// `accessHash`: the session verifying, which a reverify_phone code gives full access and a reauth code a
    /// grant of its own.
    /// An expired code tried is an event of the account's timeline.
    func verify(
        user: UserRecord, access: AccessLevel, accessHash: String?, body: VerifyOTPBody, reauthToken: String?
    ) async throws -> VerifyOTPResult {
        try await EventLog.recordingRefusals(store, now: clock.now(), userId: user.id, subject: nil) {
            try await verifyRecorded(
                user: user, access: access, accessHash: accessHash, body: body, reauthToken: reauthToken)
        }
    }

    private func verifyRecorded(
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
            try CodeService.requireOpen(request, now: now)
            let purpose = try Self.purpose(of: request)
            // Read in this transaction: another request may have re-verified meanwhile.
            try Self.refuseForAccess(try SessionService.access(db, accessHash: accessHash), purpose: purpose)
            if purpose == .changePhone {
                try ReauthService.require(
                    db, digest: store.digest, proof: ReauthProof(token: reauthToken, accessHash: accessHash),
                    user: user, target: .phone, now: now)
            }
            if case .wrong(let remaining) = try codes.check(db, request, code: body.code, now: now) {
                return .wrong(remaining: remaining)
            }
            let phone = request.destination
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
                    try EventLog.append(
                        db,
                        .init(
                            kind: purpose == .addPhone ? .methodAdded : .methodChanged, userId: user.id, subject: phone,
                            rule: .otpVerified, detail: ["method": "phone"]),
                        now: now)
                }
                let updated = try UserRecord.fetchOne(db, key: user.id)
                return .done(VerifyOTPResult(purpose: .init(purpose), authMethods: updated?.authMethods))
            }
        }
        switch outcome {
        case .done(let result):
            return result
        case .wrong(let remaining):
            throw CodeService.incorrect(remaining: remaining, userId: user.id)
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
    private static func fetch(_ db: Database, id: String, userId: String) throws -> CodeChallengeRecord {
        try CodeService.fetch(db, id: id, userId: userId)
    }

    /// What a signed-in account's code is for; an account's code always has one of these purposes.
    private static func purpose(of request: CodeChallengeRecord) throws -> OTPPurpose {
        guard let purpose = request.purpose.phonePurpose else { throw CodeService.phoneAnswers.unknown }
        return purpose
    }
}
