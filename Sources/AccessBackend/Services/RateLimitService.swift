import Foundation
import GRDB

/// How often one address may be sent a code or a link (seed README's settlement of 000 vs 003):
/// 30 s between sends, at most 3 resends per 15 min, at most 5 sends per 24 h. Texts and emails obey the
/// same rules, each address counted on its own, so no endpoint can be used to flood a phone or a mailbox.
struct RateLimitService: Sendable {
    static let cooldown: TimeInterval = 30
    static let resendWindow: TimeInterval = 15 * 60
    static let maxResendsPerWindow = 3
    static let dailyWindow: TimeInterval = 24 * 60 * 60
    static let maxCodesPerDay = 5

    enum Channel: String, Sendable {
        case sms
        case email

        /// What the user is waiting for, in the refusal's copy.
        var noun: String { self == .sms ? "code" : "email" }

        /// Emails are case-insensitive (the users table compares them NOCASE); one mailbox, one count.
        func key(_ recipient: String) -> String { self == .sms ? recipient : recipient.lowercased() }
    }

    /// Throws 429 with the longest wait among the limits that fire, so the client's countdown is honest.
    static func check(_ db: Database, channel: Channel, recipient: String, isResend: Bool, now: Date) throws {
        let key = channel.key(recipient)
        let noun = channel.noun
        var refusals: [(retryAfter: TimeInterval, limit: String, message: String)] = []
        let t = now.unix
        if let last = try Double.fetchOne(
            db, sql: "SELECT MAX(sent_at) FROM sends WHERE recipient = ?", arguments: [key]),
            t - last < cooldown
        {
            refusals.append((last + cooldown - t, "cooldown", "Please wait before requesting another \(noun)."))
        }
        if isResend {
            let resends = try Double.fetchAll(
                db,
                sql: "SELECT sent_at FROM sends WHERE recipient = ? AND is_resend = 1 AND sent_at > ? ORDER BY sent_at",
                arguments: [key, t - resendWindow])
            if resends.count >= maxResendsPerWindow {
                let freed = resends[resends.count - maxResendsPerWindow] + resendWindow
                refusals.append((freed - t, "resend_window", "Too many \(noun)s requested. Try again later."))
            }
        }
        let today = try Double.fetchAll(
            db, sql: "SELECT sent_at FROM sends WHERE recipient = ? AND sent_at > ? ORDER BY sent_at",
            arguments: [key, t - dailyWindow])
        if today.count >= maxCodesPerDay {
            let freed = today[today.count - maxCodesPerDay] + dailyWindow
            refusals.append((freed - t, "daily_cap", "You've reached today's limit of \(noun)s. Try again tomorrow."))
        }
        guard let worst = refusals.max(by: { $0.retryAfter < $1.retryAfter }) else { return }
        throw BackendError.rateLimited(
            retryAfter: max(1, Int(worst.retryAfter.rounded(.up))), limit: worst.limit, message: worst.message)
    }

    /// Not in the seeds: without it "Verify it's you" by password would allow unlimited guessing.
    static let passwordWindow: TimeInterval = 15 * 60
    static let maxPasswordFailures = 5

    static func checkPasswordAttempts(_ db: Database, userId: String, now: Date) throws {
        let failures = try Double.fetchAll(
            db, sql: "SELECT failed_at FROM password_failures WHERE user_id = ? AND failed_at > ? ORDER BY failed_at",
            arguments: [userId, now.unix - passwordWindow])
        guard failures.count >= maxPasswordFailures else { return }
        let freed = failures[failures.count - maxPasswordFailures] + passwordWindow
        throw BackendError.rateLimited(
            retryAfter: max(1, Int((freed - now.unix).rounded(.up))), limit: "password_attempts",
            message: "Too many wrong passwords. Try again later or verify another way.")
    }

    /// Records a wrong password; returns how many more may be wrong before the lock.
    static func recordPasswordFailure(_ db: Database, userId: String, now: Date) throws -> Int {
        try db.execute(
            sql: "INSERT INTO password_failures (user_id, failed_at) VALUES (?, ?)", arguments: [userId, now.unix])
        let failures =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM password_failures WHERE user_id = ? AND failed_at > ?",
                arguments: [userId, now.unix - passwordWindow]) ?? 0
        return max(0, maxPasswordFailures - failures)
    }

    static func record(_ db: Database, channel: Channel, recipient: String, isResend: Bool, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO sends (channel, recipient, sent_at, is_resend) VALUES (?, ?, ?, ?)",
            arguments: [channel.rawValue, channel.key(recipient), now.unix, isResend])
    }
}
