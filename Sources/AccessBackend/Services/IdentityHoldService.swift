import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Seed 001: after a delete, the account's phone and email cannot be claimed again for 7 days ("cooldown
/// to prevent impulse re-signup confusion"), nor its Apple and Google accounts (issue 25: signing up with
/// them at once bypassed the hold). Held as keyed digests, so the hold outlives the purge without keeping
/// the address. One rule for every way an identifier is claimed: changing or adding a phone or email,
/// connecting a provider, and sign-up (issue 14) call `refuseIfHeld` the same way.
enum IdentityHoldService {
    /// "7 days": how long the hold lasts, in the refusals' words.
    private static let held = RuleText.duration(DeletionRules.holdDuration)

    /// A refusal says when the hold ends, in words and as `held_until` (issue 48: "Try again later" with no
    /// date left the person guessing for up to a week).
    private static func refusal(_ message: String, until: Date, rule: Rule) -> BackendError {
        var error = BackendError(.conflict, "recently_deleted", message, rule: rule)
        error.detail.heldUntil = until
        return error
    }

    /// "Fri, Jan 22, 08:00 UTC": the backend's clock is UTC; a client words `held_until` in its own zone.
    static func endText(_ until: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.weekday, .month, .day, .hour, .minute], from: until)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(weekday), \(month) \(parts.day ?? 1), \(time) UTC"
    }

    static func phoneHeld(until: Date) -> BackendError {
        refusal(
            "This number belonged to an account that was deleted less than \(Self.held) ago. "
                + "Try again from \(endText(until)) or use another number.",
            until: until, rule: .holdPhoneRecentlyDeleted)
    }

    static func emailHeld(until: Date) -> BackendError {
        refusal(
            "This email belonged to an account that was deleted less than \(Self.held) ago. "
                + "Try again from \(endText(until)) or use another email.",
            until: until, rule: .holdEmailRecentlyDeleted)
    }

    static func providerHeld(_ provider: SocialProvider, until: Date) -> BackendError {
        refusal(
            "This \(provider.display) account belonged to an account that was deleted less than \(Self.held) ago. "
                + "Try again from \(endText(until)) or use another way in.",
            until: until, rule: .holdProviderRecentlyDeleted)
    }

    /// Held as typed in E.164 (the form every number is stored in) and emails case-insensitively, as the
    /// users table compares them; each kind in its own context, so a phone's digest never matches an email's.
    static func phoneKey(_ phone: String, digest: TokenDigest) -> String { digest(phone, context: "hold:phone") }
    static func emailKey(_ email: String, digest: TokenDigest) -> String {
        digest(EmailRules.normalized(email).lowercased(), context: "hold:email")
    }

    /// A provider account by its subject, in a context of its own per provider.
    static func providerKey(_ provider: SocialProvider, _ subject: String, digest: TokenDigest) -> String {
        digest(subject, context: "hold:\(provider.rawValue)")
    }

    static func hold(
        _ db: Database, digest: TokenDigest, phone: String?, email: String?, apple: String? = nil,
        google: String? = nil, until: Date
    ) throws {
        let keys = [
            phone.map { phoneKey($0, digest: digest) }, email.map { emailKey($0, digest: digest) },
            apple.map { providerKey(.apple, $0, digest: digest) },
            google.map { providerKey(.google, $0, digest: digest) },
        ]
        for key in keys.compactMap({ $0 }) {
            try IdentityHoldRecord(identifierHash: key, heldUntil: until.unix).insert(db, onConflict: .replace)
        }
    }

    /// 409 `recently_deleted` when either identifier is still held at `now`.
    static func refuseIfHeld(
        _ db: Database, digest: TokenDigest, phone: String? = nil, email: String? = nil, now: Date
    ) throws {
        if let phone, let until = try heldUntil(db, key: phoneKey(phone, digest: digest), now: now) {
            throw phoneHeld(until: until)
        }
        if let email, let until = try heldUntil(db, key: emailKey(email, digest: digest), now: now) {
            throw emailHeld(until: until)
        }
    }

    /// When the provider account's hold ends, if it is held at `now` (`providerHeld` is the refusal): asked
    /// where the refusal must commit the id token's spending, so it is returned rather than thrown.
    static func heldUntil(
        _ db: Database, digest: TokenDigest, provider: SocialProvider, subject: String, now: Date
    ) throws -> Date? {
        try heldUntil(db, key: providerKey(provider, subject, digest: digest), now: now)
    }

    /// When the email's hold ends, if it is held at `now` (`emailHeld` is the refusal): asked where the refusal
    /// must commit its count (registration's send limits), so it is returned rather than thrown.
    static func heldUntil(_ db: Database, digest: TokenDigest, email: String, now: Date) throws -> Date? {
        try heldUntil(db, key: emailKey(email, digest: digest), now: now)
    }

    private static func heldUntil(_ db: Database, key: String, now: Date) throws -> Date? {
        try Double.fetchOne(
            db, sql: "SELECT MAX(held_until) FROM identity_holds WHERE identifier_hash = ? AND held_until > ?",
            arguments: [key, now.unix]
        ).map { Date(timeIntervalSince1970: $0) }
    }
}
