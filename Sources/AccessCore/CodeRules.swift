import Foundation

// Every number of the rules lives in AccessCore, once (issue 46 item 2): the backend enforces these values, the
// app words its screens and spec notes from them, `accessdeck conform` holds any backend to them, and
// docs/RULES.md quotes each by name (`RuleNumbers` lists them for the tests that hold the words to the values).

/// How long a code lives and how many wrong tries kill it (seed 000, docs/RULES.md's `otp.*` and `signin.*`):
/// every 6-digit code the backend's `CodeService` sends obeys them.
public enum CodeRules {
    public static let lifetime: TimeInterval = 5 * 60
    public static let maxWrongAttempts = 5
}

/// How long "Verify it's you" lasts (seed 000, `reauth.granted`): `ReauthService` and conform.
public enum ReauthRules {
    public static let window: TimeInterval = 15 * 60
}

/// How long an access token works (seed 002, `session.invalid`: "past its access token's hour") and a refresh
/// token (seed 003: 7 days, rotated on every use): `SessionService` and conform.
public enum SessionRules {
    public static let accessLifetime: TimeInterval = 60 * 60
    public static let refreshLifetime: TimeInterval = 7 * 24 * 60 * 60
}

/// How long a rotated refresh token may be presented again and get back the pair its rotation issued
/// (`session.refresh_retried`; GoTrue's refresh_token_reuse_interval, 10 s by default): a client whose reply was
/// lost (a dropped connection, `commit_then_fail`) retries with the token it still holds and stays signed in, and
/// two refreshes racing on one client get the same pair. The same pair, not a fresh one: minting another would
/// leave two live sessions in one family, and would end the first holder's session when it rotates. After the
/// interval, or once that pair has itself been rotated or signed out, presenting the token again is reuse: the
/// family ends (`session.refresh_reused`). `SessionService` and conform.
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
/// locks the address for 30 s, each further one doubling up to 15 min; a day without failures starts the count
/// over: `LoginThrottleService` and conform.
public enum LoginLockRules {
    public static let failuresBeforeLock = 2
    public static let firstLock: TimeInterval = 30
    public static let longestLock: TimeInterval = 15 * 60
    public static let forgetAfter: TimeInterval = 24 * 60 * 60
}

/// How often one address may ask to recover its account (`recovery.daily_cap`; its cooldown is
/// `SendLimits.cooldown`): `RecoveryService` and conform.
public enum RecoveryLimits {
    public static let dailyWindow: TimeInterval = 24 * 60 * 60
    public static let maxRequestsPerDay = 5
}

/// What deleting an account keeps, and for how long (seed 000, `delete.done`): the phone, email and provider
/// accounts held from new claims, and everything else until the purge. `DeletionService`,
/// `IdentityHoldService` and conform.
public enum DeletionRules {
    public static let holdDuration: TimeInterval = 7 * 24 * 60 * 60
    public static let purgeDelay: TimeInterval = 30 * 24 * 60 * 60
    /// Seed 001 "Pending (24h hold)"; the weekly automatic payout empties what is available.
    public static let payoutInterval: TimeInterval = 7 * 24 * 60 * 60
}

/// The simulated Apple and Google accept only their own id tokens, once, within 10 minutes
/// (`signin.provider_token_invalid`): `ProviderService`.
public enum ProviderTokenRules {
    public static let lifetime: TimeInterval = 10 * 60
}
