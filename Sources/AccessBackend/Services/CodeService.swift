import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Every 6-digit code the backend sends, whatever it is for: signing in or up by phone or email, changing or
/// adding a phone, "Verify it's you" by text, re-verifying a recovered account's phone (issue 46 item 1). Seed
/// 000's rules as docs/RULES.md's `otp.*` and `signin.*` settle them: a code lives `CodeRules.lifetime` and works
/// once, `CodeRules.maxWrongAttempts` wrong tries kill it, a resend renews it under the same id, a new request
/// while one is live for the same destination replaces it and counts as a resend, and every send obeys
/// `RateLimitService`. One record (`code_challenges`, its purpose a column) and this one service: the phone
/// codes of a signed-in account (`OTPService`) and the sign-in codes (`SignInService`) add only what their
/// purpose does once the code is right.
struct CodeService: Sendable {
    let store: Store

    /// How one family of operations names a code's answers: the same rules, under their own ids in the journal
    /// (`otp.*` for /auth/phone/*, `signin.*` for /auth/sign-in/code*).
    struct Answers {
        var unknown: BackendError
        var closed: BackendError
        var incorrect: Rule
        var exhausted: Rule
        /// The rule a new code that replaces a live one keeps, and the rule a resend's new code keeps: conform's
        /// self-tests break each through the policy.
        var sent: Rule
        var resent: Rule
    }

    static let phoneAnswers = Answers(
        unknown: BackendError(
            .notFound, "otp_request_not_found", "This code request does not exist.", rule: .otpRequestUnknown),
        closed: BackendError(
            .gone, "request_closed", "This code request is closed. Start again.", rule: .otpRequestClosed),
        incorrect: .otpCodeIncorrect, exhausted: .otpCodeIncorrectExhausted, sent: .otpSent, resent: .otpResent)

    static let signInAnswers = Answers(
        unknown: BackendError(
            .notFound, "challenge_not_found", "This sign-in code request does not exist. Start again.",
            rule: .signInChallengeUnknown),
        closed: BackendError(
            .gone, "request_closed", "This code request is closed. Start again.", rule: .signInRequestClosed),
        incorrect: .signInCodeIncorrect, exhausted: .signInCodeIncorrectExhausted, sent: .signInCodeSent,
        resent: .signInCodeResent)

    /// A sign-in code belongs to no account yet; every other code to the account it was sent for.
    static func answers(userId: String?) -> Answers { userId == nil ? signInAnswers : phoneAnswers }

    static let expired = BackendError(.gone, "code_expired", "Code expired. Request a new one.", rule: .otpExpired)

    /// A code just sent: its request's id, when it stops working and when another may be sent.
    struct Issued {
        var id: String
        var expiresAt: Date
        var resendAfter: Date
    }

    /// A new code for `purpose` to `destination`. A live code to the same destination for the same account (for
    /// sign-in: for nobody yet) is a resend in disguise: it counts as one, and that code stops working.
    func issue(
        _ db: Database, purpose: CodePurpose, userId: String?, channel: SignInChannel, destination: String, now: Date
    ) throws -> Issued {
        let live = try String.fetchAll(
            db,
            sql:
                "SELECT id FROM code_challenges WHERE destination = ? AND user_id IS ? AND state = ? AND expires_at > ?",
            arguments: [destination, userId, CodeState.open, now.unix])
        let isResend = !live.isEmpty
        try RateLimitService.check(
            db, channel: channel.sendChannel, recipient: destination, purpose: purpose.rawValue, isResend: isResend,
            requester: .client(account: userId), now: now)
        for id in live where RulePolicy.current.enforces(Self.answers(userId: userId).sent) {
            try OutboxService.endCode(db, request: id, state: .open, expiresAt: .infinity, now: now)
            try Self.setState(db, id: id, .superseded)
        }
        let id = Secrets.identifier(prefix: purpose == .signIn ? "chl_" : "otp_")
        let code = try Self.newCode(db, destination: destination)
        let challenge = CodeChallengeRecord(
            id: id, purpose: purpose, userId: userId, channel: channel, destination: destination,
            codeHash: store.digest(code, context: id), createdAt: now.unix, expiresAt: now.unix + CodeRules.lifetime,
            resendAfter: now.unix + SendLimits.cooldown)
        try challenge.insert(db)
        try deliver(db, challenge, code: code, isResend: isResend, now: now)
        return Self.issued(challenge)
    }

    /// A new code under the same request: a dead (killed by wrong tries) or timed-out one may be replaced, a
    /// used, cancelled or replaced one may not.
    func renew(_ db: Database, _ challenge: CodeChallengeRecord, now: Date) throws -> Issued {
        let answers = Self.answers(userId: challenge.userId)
        // Not kept: a request another one replaced is renewed as a live one would be.
        let reopens =
            challenge.state == .superseded && !RulePolicy.current.enforces(answers.resent, .replacedRequestClosed)
        guard challenge.state.isResendable || reopens else { throw answers.closed }
        // Not kept: a code killed by wrong tries closes its request, as a used one does.
        if challenge.state == .dead, !RulePolicy.current.enforces(answers.exhausted, .killedCodeReplaceable) {
            throw answers.closed
        }
        try RateLimitService.check(
            db, channel: challenge.channel.sendChannel, recipient: challenge.destination,
            purpose: challenge.purpose.rawValue, isResend: true, requester: .client(account: challenge.userId), now: now
        )
        try OutboxService.endCode(
            db, request: challenge.id, state: challenge.state, expiresAt: challenge.expiresAt, now: now)
        let code = try Self.newCode(db, destination: challenge.destination)
        var renewed = challenge
        // Not kept: the new code goes out, and the last one is still the one that works.
        if RulePolicy.current.enforces(answers.resent) {
            renewed.codeHash = store.digest(code, context: challenge.id)
        }
        renewed.expiresAt = now.unix + CodeRules.lifetime
        renewed.resendAfter = now.unix + SendLimits.cooldown
        renewed.wrongAttempts = 0
        renewed.state = .open
        try renewed.update(db)
        try deliver(db, renewed, code: code, isResend: true, now: now)
        return Self.issued(renewed)
    }

    /// The request `id` of the account `userId` (nil: a sign-in code), or 404: another account's request, or
    /// another family's, says nothing either.
    static func fetch(_ db: Database, id: String, userId: String?) throws -> CodeChallengeRecord {
        guard let challenge = try CodeChallengeRecord.fetchOne(db, key: id), challenge.userId == userId else {
            throw answers(userId: userId).unknown
        }
        return challenge
    }

    /// 410 unless the code is open and within its lifetime.
    static func requireOpen(_ challenge: CodeChallengeRecord, now: Date) throws {
        guard challenge.state == .open, challenge.expiresAt > now.unix || !RulePolicy.current.enforces(.otpExpired)
        else { throw expired }
    }

    enum Verdict {
        case right
        case wrong(remaining: Int)
    }

    /// The right code spends the request; a wrong one is counted, and the last wrong try kills the code. The
    /// caller returns a wrong verdict out of its transaction rather than throwing, so the count is committed,
    /// and then throws `incorrect`.
    func check(_ db: Database, _ challenge: CodeChallengeRecord, code: String, now: Date) throws -> Verdict {
        let presented = store.digest(code, context: challenge.id)
        guard Secrets.constantTimeEquals(presented, challenge.codeHash) else {
            var wrong = challenge
            wrong.wrongAttempts += 1
            let exhausted = wrong.wrongAttempts >= CodeRules.maxWrongAttempts
            let answers = Self.answers(userId: challenge.userId)
            wrong.state = exhausted && RulePolicy.current.enforces(answers.exhausted) ? .dead : .open
            try wrong.update(db)
            let remaining = max(0, CodeRules.maxWrongAttempts - wrong.wrongAttempts)
            try Self.event(
                db, wrong.state == .dead ? .codeDead : .codeWrong, challenge,
                rule: remaining == 0 ? answers.exhausted : answers.incorrect, detail: ["tries_left": "\(remaining)"],
                now: now)
            return .wrong(remaining: remaining)
        }
        try Self.setState(db, id: challenge.id, .used)
        try Self.event(db, .codeAccepted, challenge, rule: nil, detail: [:], now: now)
        return .right
    }

    /// What became of a code, for the event log: its channel, purpose and destination beside `detail`.
    private static func event(
        _ db: Database, _ kind: EventKind, _ challenge: CodeChallengeRecord, rule: Rule?, detail: [String: String],
        now: Date
    ) throws {
        var detail = detail
        detail["channel"] = challenge.channel.rawValue
        detail["purpose"] = challenge.purpose.rawValue
        let owner = try challenge.userId ?? EventLog.owner(db, of: challenge.destination)
        try EventLog.append(
            db, .init(kind: kind, userId: owner, subject: challenge.destination, rule: rule, detail: detail),
            now: now)
    }

    /// 401 `code_incorrect` with the tries left, under the family's rule.
    static func incorrect(remaining: Int, userId: String?) -> BackendError {
        let answers = answers(userId: userId)
        var error = BackendError(
            .unauthorized, "code_incorrect", "Code is incorrect. Try again.",
            rule: remaining == 0 ? answers.exhausted : answers.incorrect)
        error.detail.attemptsRemaining = remaining
        return error
    }

    static func setState(_ db: Database, id: String, _ state: CodeState) throws {
        try db.execute(sql: "UPDATE code_challenges SET state = ? WHERE id = ?", arguments: [state, id])
    }

    /// Scenario test codes win for their phone or address; everything else gets a fresh CSPRNG code.
    private static func newCode(_ db: Database, destination: String) throws -> String {
        try TestCodeRecord.fetchOne(
            db, sql: "SELECT * FROM test_codes WHERE phone = ? COLLATE NOCASE", arguments: [destination]
        )?.code ?? Secrets.otpCode()
    }

    private static func issued(_ challenge: CodeChallengeRecord) -> Issued {
        Issued(
            id: challenge.id, expiresAt: Date(unix: challenge.expiresAt), resendAfter: Date(unix: challenge.resendAfter)
        )
    }

    private func deliver(
        _ db: Database, _ challenge: CodeChallengeRecord, code: String, isResend: Bool, now: Date
    ) throws {
        try RateLimitService.record(
            db, channel: challenge.channel.sendChannel, recipient: challenge.destination, isResend: isResend,
            requester: .client(account: challenge.userId), now: now)
        try OutboxService.send(
            db,
            .init(
                channel: challenge.channel.outboxChannel, recipient: challenge.destination, kind: .otp,
                purpose: challenge.purpose.rawValue, code: code, requestId: challenge.id),
            sealedWith: store.outboxSealer, now: now)
    }
}

extension SignInChannel {
    var sendChannel: RateLimitService.Channel { self == .phone ? .sms : .email }
    var outboxChannel: OutboxChannel { self == .phone ? .sms : .email }
}
