import AccessAPI
import AccessCore
import Foundation
import GRDB

/// A row of `users`: an account, as the rules need it.
struct UserRecord: Record {
    static let databaseTableName = "users"

    var id: String
    var role: UserRole
    var isPrimary: Bool
    var phone: String?
    var email: String?
    var passwordHash: String?
    /// Only for a password stored by the oldest scheme (`PasswordHasher`); nil once rehashed.
    var passwordSalt: String?
    var passwordChangedAt: Double?
    var appleSubject: String?
    var googleSubject: String?
    /// Set by `DELETE /me`; the row stays until the purge, with nothing left to sign in with.
    var deletedAt: Double? = nil
    /// Registered with a password (or given a recovery email) whose link was not opened yet.
    var emailUnverified = false
    /// Stored lowercased; unique without case.
    var username: String? = nil
    var photo: String? = nil
    /// Seed 004's name to show for the person, trimmed; nil when none was given.
    var displayName: String? = nil
    /// The first unfinished step (`OnboardingService`); accounts from before onboarding are complete.
    var onboardingStep = OnboardingStep.complete
    /// When two-factor was turned on (issue 31); nil while it is off. Here rather than only in `two_factor`
    /// because every authenticated request needs it (`SessionService`'s gate) and reads this row anyway.
    var twoFactorEnabledAt: Double? = nil
    /// Passkeys that may sign in (issue 53): registered and not flagged as cloned. Kept by `PasskeyService` in the
    /// transaction that changes them, so the sign-in methods are read with the user as the others are.
    var livePasskeys = 0

    /// Sign-in methods the user can still get in with (seed 000's "only method" rule counts these).
    var signInMethods: SignInMethods {
        SignInMethods(
            phone: phone != nil, email: email != nil, apple: appleSubject != nil, google: googleSubject != nil,
            passkey: livePasskeys > 0)
    }

    /// What may verify a change of this account's methods ("Verify it's you").
    var reauthRule: ReauthRule {
        ReauthRule(methods: signInMethods, hasPassword: passwordHash != nil, hasAuthenticator: hasTwoFactor)
    }

    var hasTwoFactor: Bool { twoFactorEnabledAt != nil }

    var authMethods: AuthMethods {
        AuthMethods(
            userId: id, role: .init(role), phone: phone, email: email, hasPassword: passwordHash != nil,
            appleLinked: appleSubject != nil, googleLinked: googleSubject != nil,
            passwordChangedAt: passwordChangedAt.map { Date(unix: $0) }, twoFactorEnabled: hasTwoFactor,
            passkeys: livePasskeys)
    }

    func subject(of provider: SocialProvider) -> String? { provider == .apple ? appleSubject : googleSubject }
}

extension UserRecord {
    /// By column name rather than through `Decodable`: every authenticated request decodes one user, and
    /// GRDB's Codable path builds a decoder and containers for it each time.
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        role = try row.decode(forColumn: "role")
        isPrimary = try row.decode(forColumn: "is_primary")
        phone = try row.decode(forColumn: "phone")
        email = try row.decode(forColumn: "email")
        passwordHash = try row.decode(forColumn: "password_hash")
        passwordSalt = try row.decode(forColumn: "password_salt")
        passwordChangedAt = try row.decode(forColumn: "password_changed_at")
        appleSubject = try row.decode(forColumn: "apple_subject")
        googleSubject = try row.decode(forColumn: "google_subject")
        deletedAt = try row.decode(forColumn: "deleted_at")
        emailUnverified = try row.decode(forColumn: "email_unverified")
        username = try row.decode(forColumn: "username")
        photo = try row.decode(forColumn: "photo")
        displayName = try row.decode(forColumn: "display_name")
        onboardingStep = try row.decode(forColumn: "onboarding_step")
        twoFactorEnabledAt = try row.decode(forColumn: "two_factor_enabled_at")
        livePasskeys = try row.decode(forColumn: "live_passkeys")
    }
}
