import Foundation

/// Every number of the rules, under the name docs/RULES.md quotes it by ("30 s (`SendLimits.cooldown`)"), in the
/// unit RULES.md gives it: seconds, or a count. Not a second copy of any value: each entry reads its constant.
/// RulesDocumentTests holds RULES.md's numbers to these, and the app's copy tests hold every limit said on screen
/// or in a spec note to them, so a number written out anywhere by hand fails a test.
public enum RuleNumbers {
    /// The limits that are times, in seconds: what a time said on screen must be one of.
    public static let durations: [String: TimeInterval] = [
        "CodeRules.lifetime": CodeRules.lifetime,
        "SendLimits.cooldown": SendLimits.cooldown,
        "SendLimits.resendWindow": SendLimits.resendWindow,
        "SendLimits.dailyWindow": SendLimits.dailyWindow,
        "SendLimits.capWindow": SendLimits.capWindow,
        "PasswordAttemptRules.window": PasswordAttemptRules.window,
        "SessionRules.accessLifetime": SessionRules.accessLifetime,
        "SessionRules.refreshLifetime": SessionRules.refreshLifetime,
        "RefreshRules.reuseInterval": RefreshRules.reuseInterval,
        "ReauthRules.window": ReauthRules.window,
        "LinkLifetimes.reauth": LinkLifetimes.reauth,
        "LinkLifetimes.emailChange": LinkLifetimes.emailChange,
        "LinkLifetimes.emailRevert": LinkLifetimes.emailRevert,
        "LinkLifetimes.emailChangeResendable": LinkLifetimes.emailChangeResendable,
        "LinkLifetimes.registration": LinkLifetimes.registration,
        "LinkLifetimes.recovery": LinkLifetimes.recovery,
        "LinkLifetimes.passwordReset": LinkLifetimes.passwordReset,
        "LoginLockRules.firstLock": LoginLockRules.firstLock,
        "LoginLockRules.longestLock": LoginLockRules.longestLock,
        "LoginLockRules.forgetAfter": LoginLockRules.forgetAfter,
        "RecoveryLimits.dailyWindow": RecoveryLimits.dailyWindow,
        "DeletionRules.holdDuration": DeletionRules.holdDuration,
        "DeletionRules.purgeDelay": DeletionRules.purgeDelay,
        "DeletionRules.payoutInterval": DeletionRules.payoutInterval,
        "ProviderTokenRules.lifetime": ProviderTokenRules.lifetime,
        "TOTP.period": TOTP.period,
        "TwoFactorLimits.lockout": TwoFactorLimits.lockout,
        "TwoFactorLimits.pendingSetupLifetime": TwoFactorLimits.pendingSetupLifetime,
        "RequestBounds.longestClockAdvance": RequestBounds.longestClockAdvance,
        "PasskeyRules.challengeLifetime": PasskeyRules.challengeLifetime,
    ]

    /// The limits that are counts.
    public static let counts: [String: Int] = [
        "CodeRules.maxWrongAttempts": CodeRules.maxWrongAttempts,
        "SendLimits.maxResendsPerWindow": SendLimits.maxResendsPerWindow,
        "SendLimits.maxCodesPerDay": SendLimits.maxCodesPerDay,
        "SendLimits.maxSendsPerClientAddress": SendLimits.maxSendsPerClientAddress,
        "SendLimits.maxSendsPerAccount": SendLimits.maxSendsPerAccount,
        "SendLimits.maxSendsPerHour": SendLimits.maxSendsPerHour,
        "PasswordAttemptRules.maxFailures": PasswordAttemptRules.maxFailures,
        "LoginLockRules.failuresBeforeLock": LoginLockRules.failuresBeforeLock,
        "RecoveryLimits.maxRequestsPerDay": RecoveryLimits.maxRequestsPerDay,
        "PasswordRules.minimumLength": PasswordRules.minimumLength,
        "PasswordRules.maximumLength": PasswordRules.maximumLength,
        "UsernameRules.minimumLength": UsernameRules.minimumLength,
        "UsernameRules.maximumLength": UsernameRules.maximumLength,
        "DisplayNameRules.maximumLength": DisplayNameRules.maximumLength,
        "TOTP.digits": TOTP.digits,
        "TOTP.driftSteps": Int(TOTP.driftSteps),
        "TwoFactorLimits.maxWrongCodes": TwoFactorLimits.maxWrongCodes,
        "TwoFactorLimits.recoveryCodeCount": TwoFactorLimits.recoveryCodeCount,
        "TwoFactorLimits.recoveryCodeHalfLength": TwoFactorLimits.recoveryCodeHalfLength,
        "RequestBounds.bodyBytes": RequestBounds.bodyBytes,
        "RequestBounds.maxPhotoLength": RequestBounds.maxPhotoLength,
        "RequestBounds.journalCapacity": RequestBounds.journalCapacity,
        "RequestBounds.maxDeviceNameLength": RequestBounds.maxDeviceNameLength,
        "RequestBounds.devicePublicKeyBytes": RequestBounds.devicePublicKeyBytes,
        "PasskeyRules.maxNameLength": PasskeyRules.maxNameLength,
    ]

    /// Both, counts as numbers.
    public static let all: [String: Double] = durations.merging(counts.mapValues(Double.init)) { first, _ in first }
}
