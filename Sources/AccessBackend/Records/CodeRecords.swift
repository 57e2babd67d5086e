import AccessAPI
import GRDB

/// Where a code stands: `code_challenges.state`, whose CHECK constraint keeps the column to these.
enum CodeState: String, CaseIterable, Codable, DatabaseValueConvertible, Sendable {
    /// Works until it expires.
    case open
    /// Killed by wrong tries (`CodeRules.maxWrongAttempts`); a resend may replace it.
    case dead
    case used
    /// The code screen was left (cancel-otp), or the account was deleted.
    case cancelled
    /// A new request for the same destination replaced it.
    case superseded

    /// A code a resend may replace with a new one; a used, cancelled or replaced request is closed.
    var isResendable: Bool { self == .open || self == .dead }
}

/// What a code is for (`code_challenges.purpose`): signing in or up, before there is an account, or one of the
/// phone code purposes of a signed-in account (the contract's `OTPPurpose`, spelt the same).
enum CodePurpose: String, CaseIterable, Codable, DatabaseValueConvertible, Sendable {
    case signIn = "sign_in"
    case changePhone = "change_phone"
    case addPhone = "add_phone"
    case reauth
    case reverifyPhone = "reverify_phone"

    init(_ purpose: OTPPurpose) {
        switch purpose {
        case .changePhone: self = .changePhone
        case .addPhone: self = .addPhone
        case .reauth: self = .reauth
        case .reverifyPhone: self = .reverifyPhone
        }
    }

    /// The contract's name for a signed-in account's purpose; nil for a sign-in code.
    var phonePurpose: OTPPurpose? {
        switch self {
        case .signIn: nil
        case .changePhone: .changePhone
        case .addPhone: .addPhone
        case .reauth: .reauth
        case .reverifyPhone: .reverifyPhone
        }
    }
}

/// A row of `code_challenges`: one 6-digit code texted or emailed for one purpose (`CodeService`).
struct CodeChallengeRecord: Record {
    static let databaseTableName = "code_challenges"

    var id: String
    var purpose: CodePurpose
    /// The account it was sent for; nil for a sign-in code, sent before there is one.
    var userId: String?
    var channel: SignInChannel
    /// The phone number or email address it went to.
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
