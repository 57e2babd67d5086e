import AccessAPI
import GRDB

/// Where a texted or emailed code stands: `otp_requests.state` and `sign_in_challenges.state`, whose CHECK
/// constraints keep each table to the states it uses.
enum CodeState: String, CaseIterable, Codable, DatabaseValueConvertible, Sendable {
    /// Works until it expires.
    case open
    /// Killed by wrong tries (`OTPService.maxWrongAttempts`); a resend may replace it.
    case dead
    case used
    /// Phone codes: the code screen was left, a new request for the number replaced it, or the account was
    /// deleted.
    case cancelled
    /// Sign-in codes: a new request for the same destination replaced it.
    case superseded

    /// A code a resend may replace with a new one; a used, cancelled or replaced request is closed.
    var isResendable: Bool { self == .open || self == .dead }
}

/// A row of `otp_requests`: a code texted to a signed-in account's phone, for one purpose.
struct OTPRequestRecord: Record {
    static let databaseTableName = "otp_requests"

    var id: String
    var userId: String
    var phone: String
    var purpose: OTPPurpose
    /// The code's keyed digest, bound to `id`.
    var codeHash: String
    var createdAt: Double
    var expiresAt: Double
    var resendAfter: Double
    var wrongAttempts = 0
    var state = CodeState.open
}

/// A row of `sign_in_challenges`: a code sent to a phone or an email to sign in or up, before any account.
struct SignInChallengeRecord: Record {
    static let databaseTableName = "sign_in_challenges"

    var id: String
    var channel: SignInChannel
    var destination: String
    /// The code's keyed digest, bound to `id`.
    var codeHash: String
    var createdAt: Double
    var expiresAt: Double
    var resendAfter: Double
    var wrongAttempts = 0
    var state = CodeState.open
}

/// A row of `test_codes`: a scenario's fixed code for a phone number or an email address.
struct TestCodeRecord: Record {
    static let databaseTableName = "test_codes"

    /// A phone number or an email address (the column is named for the first).
    var phone: String
    var code: String
}
