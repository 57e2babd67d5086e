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

    static let phoneHeld = BackendError(
        .conflict, "recently_deleted",
        "This number belonged to an account that was deleted less than \(Self.held) ago. "
            + "Try again later or use another number.",
        rule: .holdPhoneRecentlyDeleted)
    static let emailHeld = BackendError(
        .conflict, "recently_deleted",
        "This email belonged to an account that was deleted less than \(Self.held) ago. "
            + "Try again later or use another email.",
        rule: .holdEmailRecentlyDeleted)

    static func providerHeld(_ provider: SocialProvider) -> BackendError {
        BackendError(
            .conflict, "recently_deleted",
            "This \(provider.display) account belonged to an account that was deleted less than \(Self.held) ago. "
                + "Try again later or use another way in.",
            rule: .holdProviderRecentlyDeleted)
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
        if let phone, try isHeld(db, key: phoneKey(phone, digest: digest), now: now) { throw phoneHeld }
        if let email, try isHeld(db, key: emailKey(email, digest: digest), now: now) { throw emailHeld }
    }

    /// Whether the provider account is still held at `now` (`providerHeld` is the refusal): asked where the
    /// refusal must commit the id token's spending, so it is returned rather than thrown.
    static func isHeld(
        _ db: Database, digest: TokenDigest, provider: SocialProvider, subject: String, now: Date
    ) throws -> Bool {
        try isHeld(db, key: providerKey(provider, subject, digest: digest), now: now)
    }

    /// Whether the email is still held at `now` (`emailHeld` is the refusal): asked where the refusal must commit
    /// its count (registration's send limits), so it is returned rather than thrown.
    static func isHeld(_ db: Database, digest: TokenDigest, email: String, now: Date) throws -> Bool {
        try isHeld(db, key: emailKey(email, digest: digest), now: now)
    }

    private static func isHeld(_ db: Database, key: String, now: Date) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS(SELECT 1 FROM identity_holds WHERE identifier_hash = ? AND held_until > ?)",
            arguments: [key, now.unix]) ?? false
    }
}
