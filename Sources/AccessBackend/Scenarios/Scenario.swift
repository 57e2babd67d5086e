import AccessAPI
import Foundation

/// One `fixtures/scenarios/NAME.json`: a world QA can load. Format: fixtures/README.md.
struct Scenario: Decodable, Sendable {
    struct Person: Decodable, Sendable {
        var id: String
        var role: UserRole?
        var phone: String?
        var email: String?
        /// Plain text in the fixture: QA must be able to type it. Never hashed on load: see `passwordHash`.
        var password: String?
        /// `password` as the backend stores it (`PasswordHasher`), made once when the fixture was written:
        /// bcrypt at cost 10 on every load made each start and scenario switch wait about 60 ms a password.
        /// Stored as it is; FixturesTests checks that it verifies `password`.
        var passwordHash: String?
        var passwordChangedDaysAgo: Double?
        var appleLinked: Bool?
        var googleLinked: Bool?
        /// Registered with email & password, its link not opened yet: password login answers 403.
        var emailUnverified: Bool?
        /// Onboarding (seed 003): the chosen name (as stored: lowercase), the photo as given, and the
        /// first unfinished step; absent step: complete, as every account from before onboarding is.
        var username: String?
        var photo: String?
        var onboardingStep: OnboardingStep?
        /// Two-factor on (issue 31), with a secret and recovery codes fixed in the fixture so tests, QA and
        /// `oathtool` can compute and type them; stored sealed and hashed like any other.
        var twoFactor: TwoFactor?
        /// Passkeys (issue 53): registered on the server, on this device (the app takes the device's half from
        /// `GET /_admin/device/passkeys`), or both.
        var passkeys: [ScenarioPasskey]?
    }

    /// A passkey of a scenario's person. Its key pair is made at each load: nobody types a passkey, so no key
    /// needs to be fixed in the fixture. `on_this_device`: the app's authenticator holds the private key (sealed in
    /// the world until the app takes it); otherwise it is on another device, and the key is dropped at once.
    /// `removed_on_server`: the device holds it and the server does not know it (removed there, not here).
    struct ScenarioPasskey: Decodable, Sendable {
        var name: String
        var deviceName: String?
        var onThisDevice: Bool?
        var removedOnServer: Bool?
        var signCount: Int?
        var lastUsedDaysAgo: Double?
    }

    struct TwoFactor: Decodable, Sendable {
        /// Base32, as an authenticator app takes it.
        var secret: String
        /// The codes not used yet (`xxxxx-xxxxx`), at most `TwoFactorLimits.recoveryCodeCount`.
        var recoveryCodes: [String]
    }

    /// Failed password logins of one address, the last `secondsAgo` (issue 14's lockout).
    struct LoginFailures: Decodable, Sendable {
        var email: String
        var failures: Int
        var secondsAgo: Double?
    }

    struct Send: Decodable, Sendable {
        var phone: String
        var secondsAgo: Double
        var resend: Bool?
    }

    /// An email change waiting for its link, sent `minutesAgo` (past 30: the link has expired).
    struct PendingEmailChange: Decodable, Sendable {
        var email: String
        var minutesAgo: Double
    }

    struct Clock: Decodable, Sendable {
        var start: Date?
        var frozen: Bool?
    }

    /// A coach's session or an athlete's booking, `starts_in_hours` after the scenario's start (negative:
    /// already begun, so no longer a blocker).
    struct ScheduledItem: Decodable, Sendable {
        var title: String
        var startsInHours: Double
    }

    /// A coach's balance waiting to be paid out (seed 001: "Withdraw your pending balance first").
    struct Payout: Decodable, Sendable {
        var currency: String
        var availableMinor: Int
        var onHoldMinor: Int
        /// When the money on hold becomes available; required while some is on hold.
        var holdReleasesInHours: Double?
        /// The weekday of the weekly automatic payout ("monday"); the next one is the first such day at
        /// 09:00 UTC after the scenario's start.
        var automaticPayoutOn: String
    }

    /// An account the simulated provider sheet offers on this "device" (GET /_admin/provider/{p}/accounts).
    struct ProviderAccount: Decodable, Sendable {
        var provider: SocialProvider
        var email: String
        var name: String
        /// The id of one of `others` whose link to this provider this account is; nil: nobody's yet.
        var linkedTo: String?
    }

    var description: String
    var user: Person
    var others: [Person]?
    var otpSends: [Send]?
    var testCodes: [String: String]?
    var clock: Clock?
    var pendingEmailChange: PendingEmailChange?
    /// The user's blockers for the delete flow (seed 001), all relative to the scenario's clock.
    var sessions: [ScheduledItem]?
    var bookings: [ScheduledItem]?
    var payout: Payout?
    var providerAccounts: [ProviderAccount]?
    /// false: the app starts signed out (the QA shortcut, `POST /_admin/session`, answers 409).
    var signedIn: Bool?
    var loginFailures: [LoginFailures]?
    /// limited: the QA session (`POST /_admin/session`) is one an account recovery by email would have
    /// issued, limited until a phone is re-verified (seed 003). Default full.
    var sessionAccess: AccessLevel?
    /// Active sessions (issue 30): the user's sign-ins on other devices, besides the QA session.
    var otherDevices: [OtherDevice]?

    struct OtherDevice: Decodable, Sendable {
        var deviceName: String
        var systemName: String
        var systemVersion: String
        var method: SessionMethod
        /// When it was last active, before the scenario's start. Its tokens are issued at the start (a session
        /// older than the refresh token's 7 days would have ended): only the list's "last seen" goes back.
        var lastSeenMinutesAgo: Double
    }

    static let knownKeys: Set<String> = [
        "description", "user", "others", "otp_sends", "test_codes", "clock", "pending_email_change", "sessions",
        "bookings", "payout", "provider_accounts", "signed_in", "login_failures", "session_access",
        "other_devices",
    ]
    static let personKeys: Set<String> = [
        "id", "role", "phone", "email", "password", "password_hash", "password_changed_days_ago", "apple_linked",
        "google_linked", "email_unverified", "username", "photo", "onboarding_step", "two_factor", "passkeys",
    ]
    static let passkeyKeys: Set<String> = [
        "name", "device_name", "on_this_device", "removed_on_server", "sign_count", "last_used_days_ago",
    ]
    static let twoFactorKeys: Set<String> = ["secret", "recovery_codes"]
    static let loginFailureKeys: Set<String> = ["email", "failures", "seconds_ago"]
    static let scheduledItemKeys: Set<String> = ["title", "starts_in_hours"]
    static let payoutKeys: Set<String> = [
        "currency", "available_minor", "on_hold_minor", "hold_releases_in_hours", "automatic_payout_on",
    ]
    static let providerAccountKeys: Set<String> = ["provider", "email", "name", "linked_to"]
    static let otherDeviceKeys: Set<String> = [
        "device_name", "system_name", "system_version", "method", "last_seen_minutes_ago",
    ]
    /// Calendar order (Sunday first), as `Calendar.component(.weekday, …)` counts from 1.
    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
}

/// A scenario that cannot be found or does not validate; the description names file, field and problem.
public struct ScenarioError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
