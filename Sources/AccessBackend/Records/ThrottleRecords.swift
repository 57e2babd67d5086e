import GRDB

/// A row of `sends`: one text or email with a code or a link, what every send limit counts
/// (`RateLimitService`).
struct SendRecord: Record {
    static let databaseTableName = "sends"

    var id: Int64? = nil
    var channel: RateLimitService.Channel
    /// The phone number, or the email address lowercased: one mailbox, one count.
    var recipient: String
    var sentAt: Double
    var isResend: Bool
    /// Who asked (nil for a scenario's history): the caps across destinations count by these.
    var clientAddress: String?
    var accountId: String?
}

/// A row of `password_failures`: a wrong password for "Verify it's you".
struct PasswordFailureRecord: Record {
    static let databaseTableName = "password_failures"

    var id: Int64? = nil
    var userId: String
    var failedAt: Double
}

/// A row of `login_failures`: the failed password sign-ins in a row for one address, by its keyed digest,
/// and the lock they earned (`LoginThrottleService`).
struct LoginFailureRecord: Record {
    static let databaseTableName = "login_failures"

    var emailKey: String
    var failures: Int
    var lastFailedAt: Double
    var lockedUntil: Double?
}

/// A row of `recovery_requests`: the audit log of "Can't access your account?", an unknown address only as
/// its digest.
struct RecoveryRequestRecord: Record {
    static let databaseTableName = "recovery_requests"

    var id: Int64? = nil
    var emailKey: String
    var userId: String?
    var ip: String?
    var deviceIdentifier: String
    var deviceName: String
    var requestedAt: Double
    var linkSent: Bool
}
