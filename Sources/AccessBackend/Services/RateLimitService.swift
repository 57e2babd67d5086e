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

    static func record(_ db: Database, phone: String, isResend: Bool, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO otp_sends (phone, sent_at, is_resend) VALUES (?, ?, ?)",
            arguments: [phone, now.unix, isResend])
    }
}
