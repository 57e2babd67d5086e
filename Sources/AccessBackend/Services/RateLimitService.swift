import AccessAPI
import AccessCore
import Foundation
import GRDB

/// How often one address may be sent a code or a link (seeds 000 and 003 settled as docs/RULES.md's
/// `rate_limit.*` says):
/// 30 s between sends, at most 3 resends per 15 min, at most 5 sends per 24 h. Texts and emails obey the
/// same rules, each address counted on its own, so no endpoint can be used to flood a phone or a mailbox.
///
/// Caps across destinations (issue 25, defect 2): counted per address only, one client cycling numbers
/// sent 11,345 texts in 10 s, and one account 42k change-phone texts in 50 s. As GoTrue caps the texts and
/// emails a whole server sends an hour (its RATE_LIMIT_SMS_SENT / RATE_LIMIT_EMAIL_SENT) and the OTP
/// requests of one IP, every text or email with a code or a link also counts, over the last hour, for the
/// client address that asked (the connection's peer, no proxy header trusted), for the signed-in account
/// that asked, and for the server. A recovery request counts for its client address and the server
/// whether or not an email went, so the count says nothing about which addresses have an account.
struct RateLimitService: Sendable {
    /// Who asked for a send: the caps across destinations count by these.
    struct Requester: Sendable {
        var account: String?
        var clientAddress: String?

        /// The request being served (`ContractScope`): its peer's address, and the signed-in account if any.
        static func client(account: String?) -> Requester {
            Requester(account: account, clientAddress: ContractScope.current?.remoteAddress)
        }

        /// A scenario's history: on the server's count only.
        static let scenario = Requester(account: nil, clientAddress: nil)
    }

    enum Channel: String, Codable, DatabaseValueConvertible, Sendable {
        case sms
        case email

        /// What the user is waiting for, in the refusal's copy.
        var noun: String { self == .sms ? "code" : "email" }

        /// Emails are case-insensitive (the users table compares them NOCASE); one mailbox, one count.
        func key(_ recipient: String) -> String { self == .sms ? recipient : recipient.lowercased() }
    }

    /// The send a limit refused: what support reads in the outbox as a row of its own (`OutboxService.keepRefused`),
    /// carried on the 429 out of the transaction it rolls back. Never the code or link it would have carried.
    struct RefusedSend: Sendable {
        var channel: Channel
        var recipient: String
        /// What was asked for, as the outbox names a sent message's purpose (`sign_in`, `reauth`, a link's kind).
        var purpose: String
    }

    /// A limit that fires now: how long until it frees a slot, and what the 429 says.
    struct Refusal {
        var retryAfter: TimeInterval
        var limit: RateLimitKind
        var message: String
        /// The limit's own, unless a flow counts it under its own name (recovery's per-address limits).
        var rule: Rule? = nil
    }

    /// Throws 429 with the longest wait among the limits that fire, so the client's countdown is honest.
    static func check(
        _ db: Database, channel: Channel, recipient: String, purpose: String, isResend: Bool, requester: Requester,
        now: Date
    ) throws {
        let key = channel.key(recipient)
        let noun = channel.noun
        var refusals = try capRefusals(db, requester: requester, now: now)
        let t = now.unix
        if let last = try Double.fetchOne(
            db, sql: "SELECT MAX(sent_at) FROM sends WHERE recipient = ?", arguments: [key]),
            t - last < SendLimits.cooldown, RulePolicy.current.enforces(.rateLimitCooldown)
        {
            refusals.append(
                .init(
                    retryAfter: last + SendLimits.cooldown - t, limit: .cooldown,
                    message: "Please wait before requesting another \(noun)."))
        }
        if isResend {
            let resends = try Double.fetchAll(
                db,
                sql: "SELECT sent_at FROM sends WHERE recipient = ? AND is_resend = 1 AND sent_at > ? ORDER BY sent_at",
                arguments: [key, t - SendLimits.resendWindow])
            if resends.count >= SendLimits.maxResendsPerWindow, RulePolicy.current.enforces(.rateLimitResendWindow) {
                let freed = resends[resends.count - SendLimits.maxResendsPerWindow] + SendLimits.resendWindow
                refusals.append(
                    .init(
                        retryAfter: freed - t, limit: .resendWindow,
                        message: "Too many \(noun)s requested. Try again later."
                    ))
            }
        }
        let today = try Double.fetchAll(
            db, sql: "SELECT sent_at FROM sends WHERE recipient = ? AND sent_at > ? ORDER BY sent_at",
            arguments: [key, t - SendLimits.dailyWindow])
        if today.count >= SendLimits.maxCodesPerDay, RulePolicy.current.enforces(.rateLimitDailyCap) {
            let freed = today[today.count - SendLimits.maxCodesPerDay] + SendLimits.dailyWindow
            refusals.append(
                .init(
                    retryAfter: freed - t, limit: .dailyCap,
                    message: "You've reached today's limit of \(noun)s. Try again tomorrow."))
        }
        try refuse(refusals, send: RefusedSend(channel: channel, recipient: recipient, purpose: purpose))
    }

    /// The first of the longest waits, so a flow's own limits (listed first) win a tie. `send`: what it refuses.
    static func refuse(_ refusals: [Refusal], send: RefusedSend) throws {
        guard let worst = refusals.max(by: { $0.retryAfter < $1.retryAfter }) else { return }
        var error = BackendError.rateLimited(
            retryAfter: max(1, Int(worst.retryAfter.rounded(.up))), limit: worst.limit, message: worst.message,
            rule: worst.rule)
        error.refusedSend = send
        throw error
    }

    /// The caps across destinations that fire now, each with how long until it frees a slot.
    static func capRefusals(_ db: Database, requester: Requester, now: Date) throws -> [Refusal] {
        let since = now.unix - SendLimits.capWindow
        var refusals: [Refusal] = []
        // Each cap frees a slot when the oldest send that fills it leaves the hour.
        func cap(_ times: [Double], max: Int, limit: RateLimitKind, message: String) {
            guard times.count >= max else { return }
            refusals.append(
                .init(
                    retryAfter: times[times.count - max] + SendLimits.capWindow - now.unix, limit: limit,
                    message: message))
        }
        if let address = requester.clientAddress, RulePolicy.current.enforces(.rateLimitClientAddressHourly) {
            let times = try Double.fetchAll(
                db,
                sql: """
                    SELECT sent_at FROM sends WHERE client_address = ? AND sent_at > ?
                    UNION ALL SELECT requested_at FROM recovery_requests WHERE ip = ? AND requested_at > ?
                    ORDER BY 1
                    """,
                arguments: [address, since, address, since])
            cap(
                times, max: SendLimits.maxSendsPerClientAddress, limit: .clientAddressHourly,
                message: "Too many codes and emails were requested from your network. Try again later.")
        }
        if let account = requester.account, RulePolicy.current.enforces(.rateLimitAccountHourly) {
            let times = try Double.fetchAll(
                db, sql: "SELECT sent_at FROM sends WHERE account_id = ? AND sent_at > ? ORDER BY sent_at",
                arguments: [account, since])
            cap(
                times, max: SendLimits.maxSendsPerAccount, limit: .accountHourly,
                message: "Too many codes and emails were requested for your account. Try again later.")
        }
        let all = try Double.fetchAll(
            db,
            sql: """
                SELECT sent_at FROM sends WHERE sent_at > ?
                UNION ALL SELECT requested_at FROM recovery_requests WHERE requested_at > ?
                ORDER BY 1
                """,
            arguments: [since, since])
        cap(
            all, max: SendLimits.maxSendsPerHour, limit: .globalHourly,
            message: "We're sending too many codes and emails right now. Try again later.")
        return refusals
    }

    // Not in the seeds: without it "Verify it's you" by password would allow unlimited guessing.
    static func checkPasswordAttempts(_ db: Database, userId: String, now: Date) throws {
        let failures = try Double.fetchAll(
            db, sql: "SELECT failed_at FROM password_failures WHERE user_id = ? AND failed_at > ? ORDER BY failed_at",
            arguments: [userId, now.unix - PasswordAttemptRules.window])
        guard failures.count >= PasswordAttemptRules.maxFailures else { return }
        let freed = failures[failures.count - PasswordAttemptRules.maxFailures] + PasswordAttemptRules.window
        throw BackendError.rateLimited(
            retryAfter: max(1, Int((freed - now.unix).rounded(.up))), limit: .passwordAttempts,
            message: "Too many wrong passwords. Try again later or verify another way.")
    }

    /// Records a wrong password; returns how many more may be wrong before the lock.
    static func recordPasswordFailure(_ db: Database, userId: String, now: Date) throws -> Int {
        try PasswordFailureRecord(userId: userId, failedAt: now.unix).insert(db)
        let failures =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM password_failures WHERE user_id = ? AND failed_at > ?",
                arguments: [userId, now.unix - PasswordAttemptRules.window]) ?? 0
        return max(0, PasswordAttemptRules.maxFailures - failures)
    }

    static func record(
        _ db: Database, channel: Channel, recipient: String, isResend: Bool, requester: Requester, now: Date
    ) throws {
        try SendRecord(
            channel: channel, recipient: channel.key(recipient), sentAt: now.unix, isResend: isResend,
            clientAddress: requester.clientAddress, accountId: requester.account
        ).insert(db)
    }
}
