import Foundation

/// Every message the app says on more than one screen for the same thing, one wording each (issue 48: "offline"
/// had three wordings, an invalid address two, neither seed 001's). Seed 001's words where it has them, else seed
/// 002's or 003's, else ours. A screen says one of these by its key (`OnScreenMessage.offline.text`), never in
/// words of its own: `OnScreenMessageTests` reads every gallery state and every string literal of the app and fails
/// on a second wording of a key (`sameMeaning`).
public enum OnScreenMessage: String, CaseIterable, Sendable {
    /// A call got no answer: nobody listens, or not in time.
    case offline
    /// Offline on a screen with nothing saved to show.
    case offlineNothingSaved
    /// Offline, a change was chosen: changes wait for the connection.
    case offlineChangesOff
    /// The server answered with a 5xx: it is there, and failed (seed 004: "show it and offer retry").
    case serverError
    /// An answer the contract does not allow for the call (seed 002's words).
    case invalidResponse
    /// An address that is not one, before any call or in the server's 422 (seed 001).
    case invalidEmail
    /// A failed password login, never saying which half was wrong (seed 002).
    case invalidCredentials
    /// A wrong code with tries left (seed 001).
    case codeIncorrect
    /// A code past its lifetime, or spent (seed 000: forcing a resend).
    case codeExpired
    /// A code killed by its last wrong try (`CodeRules.maxWrongAttempts`): a limit, said as one.
    case codeWrongTooOften
    /// A 429 that names no wait.
    case tryLater
    /// The refresh failed and the session was cleared (seed 002).
    case sessionExpired
    /// The sessions list has no other device in it.
    case noOtherDevices

    // The waits, one a limit the server names in its 429's `limit` (issue 46 item 5), each before its countdown.

    /// The gap between two sends (seed 001's "Resend in 0:27").
    case waitCooldown
    /// The resends allowed in the window are used up.
    case waitResendWindow
    case waitDailyCap
    case waitClientAddressHourly
    case waitAccountHourly
    case waitGlobalHourly
    /// The password lock (re-auth's wrong passwords).
    case waitPasswordAttempts
    /// Seed 003's words for its progressive login lockout.
    case waitLoginLockout
    case waitTwoFactorAttempts
    /// A 429 that names no limit: the server's own message is said instead where it sent one.
    case waitUnnamed

    public var text: String {
        switch self {
        case .offline: "You're offline. Check your connection and try again."
        case .offlineNothingSaved: "You're offline and nothing is saved yet. Press r to try again."
        case .offlineChangesOff: "You're offline. Changes are off until you reconnect."
        case .serverError: "The server answered with an error. Try again."
        case .invalidResponse: "Invalid response from server. Please try again."
        case .invalidEmail: "Enter a valid email address."
        case .invalidCredentials: "Invalid email or password"
        case .codeIncorrect: "Code is incorrect. Try again."
        case .codeExpired: "Code expired. Request a new one."
        case .codeWrongTooOften:
            "\(RuleText.count(CodeRules.maxWrongAttempts).sentenceCased) wrong codes. Request a new one."
        case .tryLater: "Too many attempts. Try again later."
        case .sessionExpired: "Session expired, please login"
        case .noOtherDevices: "No other devices are signed in."
        case .waitCooldown: "Resend in"
        case .waitResendWindow: "Resend limit reached. Try again in"
        case .waitDailyCap: "Daily limit reached. Try again in"
        case .waitClientAddressHourly: "Hourly limit for your network reached. Try again in"
        case .waitAccountHourly: "Hourly limit for your account reached. Try again in"
        case .waitGlobalHourly: "Hourly limit for this server reached. Try again in"
        case .waitPasswordAttempts: "Too many wrong passwords. Try again in"
        case .waitLoginLockout: "Too many incorrect attempts. Try again in"
        case .waitTwoFactorAttempts: "Too many wrong codes. Try again in"
        case .waitUnnamed: "Too many attempts. Try again in"
        }
    }

    /// What another wording of the same message says (case-insensitive): how a second wording is found, on a
    /// screen or in the app's sources. nil: the message has no wording of its own to confuse (a wait's lead is
    /// always followed by its countdown, and the leads are told apart by the limit they name).
    public var sameMeaning: String? {
        switch self {
        // Not a gallery state's "No connection: …", which describes a state rather than says a message.
        case .offline: #"no (internet )?connection(?!:)|check (it|your (connection|network|internet))"#
        case .offlineNothingSaved: #"nothing (is )?saved yet"#
        case .offlineChangesOff: #"changes are off"#
        case .serverError: #"(went wrong|error) on the server|server (answered with an|had an) error|server error[.!]"#
        case .invalidResponse: #"invalid response"#
        case .invalidEmail: #"(enter|not) a valid email|invalid email address|email address is (not valid|invalid)"#
        case .invalidCredentials:
            #"invalid (email or password|credentials)|(email|password) (or|and) (email|password) (is|are|was|were) (wrong|incorrect)"#
        case .codeIncorrect: #"code is (incorrect|wrong)\.|(incorrect|wrong) code\. try again"#
        case .codeExpired: #"code (has )?expired\."#
        case .codeWrongTooOften: #"wrong codes\. request"#
        case .tryLater: #"too many (attempts|requests)\. try again later"#
        case .sessionExpired: #"session (has )?(expired|ended)[.,]"#
        case .noOtherDevices: #"no (other )?devices? (is|are) signed in"#
        case .waitCooldown, .waitResendWindow, .waitDailyCap, .waitClientAddressHourly, .waitAccountHourly,
            .waitGlobalHourly, .waitPasswordAttempts, .waitLoginLockout, .waitTwoFactorAttempts, .waitUnnamed:
            nil
        }
    }
}
