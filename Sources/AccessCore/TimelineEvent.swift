/// What the reference backend's event log (`GET /_admin/timeline`, issue 49) records: one kind a decision a
/// person lives through. The wire spelling is the raw value; a kind this build does not know reads as `nil`
/// from `EventKind(rawValue:)`, and a reader shows its raw spelling instead of failing.
public enum EventKind: String, CaseIterable, Sendable, Codable {
    /// A text or email with a 6-digit code went out: channel, purpose, destination, whether a resend.
    case codeSent = "code_sent"
    case codeAccepted = "code_accepted"
    /// Wrong code: `tries_left` in the detail.
    case codeWrong = "code_wrong"
    /// The last wrong try killed the code.
    case codeDead = "code_dead"
    case codeExpired = "code_expired"
    /// A code or link was not sent: `limit` and `retry_after` (seconds) in the detail.
    case sendRefused = "send_refused"
    case signedIn = "signed_in"
    /// A sign-in refused: the rule says why.
    case signInRefused = "sign_in_refused"
    case lockStarted = "lock_started"
    case methodAdded = "method_added"
    case methodChanged = "method_changed"
    case methodRemoved = "method_removed"
    case passwordChanged = "password_changed"
    case passwordReset = "password_reset"
    case linkSent = "link_sent"
    case linkOpened = "link_opened"
    /// A link that no longer works was opened: `code` link_expired (used or past its lifetime) or link_superseded.
    case linkExpired = "link_expired"
    case sessionStarted = "session_started"
    /// `reason` in the detail: a `SessionEndReason`.
    case sessionEnded = "session_ended"
    case twoFactorOn = "two_factor_on"
    case twoFactorOff = "two_factor_off"
    /// `remaining` recovery codes in the detail.
    case recoveryCodeUsed = "recovery_code_used"
    /// A message without a code or link (a notice): its kind in the detail.
    case noticeSent = "notice_sent"
    case accountDeleted = "account_deleted"
    /// A deleted account's 7-day hold ran out: its number, address and providers may be claimed again. Dated
    /// when it ran out (the backend judges it on its next sweep).
    case deletionHoldEnded = "deletion_hold_ended"
    /// Apple or Google connected to an account (`provider` in the detail).
    case providerLinked = "provider_linked"
    /// Apple or Google disconnected from an account (`provider` in the detail).
    case providerDisconnected = "provider_disconnected"

    /// How a support agent reads the kind, in a list.
    public var words: String {
        switch self {
        case .codeSent: "Code sent"
        case .codeAccepted: "Code accepted"
        case .codeWrong: "Wrong code"
        case .codeDead: "Code dead (too many wrong tries)"
        case .codeExpired: "Expired code tried"
        case .sendRefused: "Send refused"
        case .signedIn: "Signed in"
        case .signInRefused: "Sign-in refused"
        case .lockStarted: "Locked"
        case .methodAdded: "Method added"
        case .methodChanged: "Method changed"
        case .methodRemoved: "Method removed"
        case .passwordChanged: "Password changed"
        case .passwordReset: "Password reset"
        case .linkSent: "Link sent"
        case .linkOpened: "Link opened"
        case .linkExpired: "Link refused (used, replaced or expired)"
        case .sessionStarted: "Session started"
        case .sessionEnded: "Session ended"
        case .twoFactorOn: "Two-factor turned on"
        case .twoFactorOff: "Two-factor turned off"
        case .recoveryCodeUsed: "Recovery code used"
        case .noticeSent: "Notice sent"
        case .accountDeleted: "Account deleted"
        case .deletionHoldEnded: "Deletion hold ended (number and address free again)"
        case .providerLinked: "Provider connected"
        case .providerDisconnected: "Provider disconnected"
        }
    }
}

/// Why a session ended, as the event log records it and a 401 for that session may say. Extensible: a reader
/// that meets a reason it does not know (`SessionEndReason(rawValue:)` is nil) shows the generic copy.
public enum SessionEndReason: String, CaseIterable, Sendable, Codable {
    case loggedOut = "logged_out"
    case signedOutByDevice = "signed_out_by_device"
    case passwordChanged = "password_changed"
    case passwordReset = "password_reset"
    case emailReverted = "email_reverted"
    case recovery
    case refreshTokenReused = "refresh_token_reused"
    case accountDeleted = "account_deleted"
    case expired

    /// What the device that lost its session says instead of "Session expired, please login" (issue 49 item 3).
    public var sentence: String {
        switch self {
        case .loggedOut: "You were signed out because this device logged out."
        case .signedOutByDevice: "You were signed out from another device. Sign in again."
        case .passwordChanged: "You were signed out because your password was changed on another device."
        case .passwordReset: "You were signed out because your password was reset."
        case .emailReverted: "You were signed out because an email change on your account was undone."
        case .recovery: "You were signed out because your account was recovered on another device."
        case .refreshTokenReused: "You were signed out because this sign-in was used from two places at once."
        case .accountDeleted: "You were signed out because your account was deleted."
        case .expired: "You were signed out because your session expired."
        }
    }

    /// The sentence for a reason as the backend spelt it; a reason this build does not know reads as the generic
    /// copy, as the contract says.
    public static func signedOutText(_ reason: String?) -> String {
        reason.flatMap(SessionEndReason.init(rawValue:))?.sentence ?? OnScreenMessage.sessionExpired.text
    }
}
