import Foundation

/// How long a code lives and how many wrong tries kill it (seed 000, docs/RULES.md's `otp.*` and `signin.*`):
/// the backend's `OTPService` enforces them and `accessdeck conform` holds any backend to them.
public enum CodeRules {
    public static let lifetime: TimeInterval = 5 * 60
    public static let maxWrongAttempts = 5
}

/// How long "Verify it's you" lasts (seed 000, `reauth.granted`): `ReauthService` and conform.
public enum ReauthRules {
    public static let window: TimeInterval = 15 * 60
}

/// How long an access token works (seed 002, `session.invalid`: "past its access token's hour"): `SessionService`
/// and conform.
public enum SessionRules {
    public static let accessLifetime: TimeInterval = 60 * 60
}

/// How long a rotated refresh token may be presented again for the same pair (`session.refresh_retried`);
/// after it, presenting it is reuse (`session.refresh_reused`): `SessionService` and conform.
public enum RefreshRules {
    public static let reuseInterval: TimeInterval = 10
}

/// "Verify it's you" by password: 5 wrong passwords in 15 min refuse that method (`rate_limit.password_attempts`):
/// `RateLimitService` and conform.
public enum PasswordAttemptRules {
    public static let window: TimeInterval = 15 * 60
    public static let maxFailures = 5
}

/// Password sign-in's lock (`login.locked`, `rate_limit.login_lockout`): the failure after the first 2 in a row
/// locks the address for 30 s, each further one doubling up to 15 min: `LoginThrottleService` and conform.
public enum LoginLockRules {
    public static let failuresBeforeLock = 2
    public static let firstLock: TimeInterval = 30
    public static let longestLock: TimeInterval = 15 * 60
}

/// How often one address may ask to recover its account (`recovery.daily_cap`; its cooldown is
/// `SendLimits.cooldown`): `RecoveryService` and conform.
public enum RecoveryLimits {
    public static let dailyWindow: TimeInterval = 24 * 60 * 60
    public static let maxRequestsPerDay = 5
}

/// How long each kind of emailed link works (seed 000: an email change's 30 minutes; seed 003: a recovery link's
/// 24 hours; each purpose keeps its own): the backend's link services and conform.
public enum LinkLifetimes {
    public static let reauth: TimeInterval = 30 * 60
    public static let emailChange: TimeInterval = 30 * 60
    /// The old address may read the notice days later; the way back stays open a week.
    public static let emailRevert: TimeInterval = 7 * 24 * 60 * 60
    public static let registration: TimeInterval = 24 * 60 * 60
    public static let passwordReset: TimeInterval = 30 * 60
    public static let recovery: TimeInterval = 24 * 60 * 60
}

/// What deleting an account keeps, and for how long (seed 000, `delete.done`): the phone, email and provider
/// accounts held from new claims, and everything else until the purge. `DeletionService`,
/// `IdentityHoldService` and conform.
public enum DeletionRules {
    public static let holdDuration: TimeInterval = 7 * 24 * 60 * 60
    public static let purgeDelay: TimeInterval = 30 * 24 * 60 * 60
}
