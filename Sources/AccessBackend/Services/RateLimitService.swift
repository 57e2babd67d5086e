import Foundation
import GRDB

/// How often a phone may receive a code (seed README's settlement of 000 vs 003):
/// 30 s between sends, at most 3 resends per 15 min, at most 5 codes per 24 h.
struct RateLimitService: Sendable {
    static let cooldown: TimeInterval = 30
    static let resendWindow: TimeInterval = 15 * 60
    static let maxResendsPerWindow = 3
    static let dailyWindow: TimeInterval = 24 * 60 * 60
    static let maxCodesPerDay = 5

    /// Throws 429 with the longest wait among the limits that fire, so the client's countdown is honest.
    static func check(_ db: Database, phone: String, isResend: Bool, now: Date) throws {
        var refusals: [(retryAfter: TimeInterval, limit: String, message: String)] = []
        let t = now.unix
        if let last = try Double.fetchOne(
            db, sql: "SELECT MAX(sent_at) FROM otp_sends WHERE phone = ?", arguments: [phone]),
            t - last < cooldown
        {
            refusals.append((last + cooldown - t, "cooldown", "Please wait before requesting another code."))
        }
        if isResend {
            let resends = try Double.fetchAll(
                db,
                sql: "SELECT sent_at FROM otp_sends WHERE phone = ? AND is_resend = 1 AND sent_at > ? ORDER BY sent_at",
                arguments: [phone, t - resendWindow])
            if resends.count >= maxResendsPerWindow {
                let freed = resends[resends.count - maxResendsPerWindow] + resendWindow
                refusals.append((freed - t, "resend_window", "Too many codes requested. Try again later."))
            }
        }
        let today = try Double.fetchAll(
            db, sql: "SELECT sent_at FROM otp_sends WHERE phone = ? AND sent_at > ? ORDER BY sent_at",
            arguments: [phone, t - dailyWindow])
        if today.count >= maxCodesPerDay {
            let freed = today[today.count - maxCodesPerDay] + dailyWindow
            refusals.append((freed - t, "daily_cap", "You've reached today's limit of codes. Try again tomorrow."))
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

    static func recordPasswordFailure(_ db: Database, userId: String, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO password_failures (user_id, failed_at) VALUES (?, ?)", arguments: [userId, now.unix])
    }

    static func record(_ db: Database, phone: String, isResend: Bool, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO otp_sends (phone, sent_at, is_resend) VALUES (?, ?, ?)",
            arguments: [phone, now.unix, isResend])
    }
}
