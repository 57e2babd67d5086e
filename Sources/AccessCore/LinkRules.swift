import Foundation

/// How long each kind of emailed link works (seed 000: an email change's 30 minutes; seed 003: a recovery link's
/// 24 hours; each purpose keeps its own, as the seed README settles).
public enum LinkLifetimes {
    /// Seed 000's magic links: 30 minutes, for re-auth as for an email change.
    public static let reauth: TimeInterval = 30 * 60
    /// Changing or adding the account's email.
    public static let emailChange: TimeInterval = 30 * 60
    /// The old address may read the notice days later; the way back stays open a week.
    public static let emailRevert: TimeInterval = 7 * 24 * 60 * 60
    /// A sign-up's verification link, and onboarding's recovery email's.
    public static let registration: TimeInterval = 24 * 60 * 60
    /// Seed 000's lifetime for a magic link that changes a credential.
    public static let passwordReset: TimeInterval = 30 * 60
    public static let recovery: TimeInterval = 24 * 60 * 60
    /// How long after its link expired an email change can still be resent without "Verify it's you" again.
    public static let emailChangeResendable: TimeInterval = 24 * 60 * 60
}

/// Every kind of emailed link the backend sends, as `links.purpose` and the outbox name it, with the one table of
/// what each kind's rules are (docs/RULES.md `link.*`, `email.*`, `register.*`, `recovery.*`, `password_reset.*`):
/// the backend's `LinkService` issues and redeems every kind by it, and the app says each kind's lifetime from it.
public enum EmailLink: String, CaseIterable, Sendable {
    /// Verify it's you.
    case reauth
    /// Applies a new address.
    case emailChange = "email_change"
    /// Adds an address with its password.
    case emailAdd = "email_add"
    /// Puts the old address back, sent to it after a change.
    case emailRevert = "email_revert"
    /// Proves a registered address (sign-up, and onboarding's recovery email).
    case register
    /// Account recovery by email.
    case recovery
    /// Forgot password?
    case passwordReset = "password_reset"

    /// A kind's rules.
    public struct Rules: Equatable, Sendable {
        /// From the send; past it the link answers expired.
        public let lifetime: TimeInterval
        /// Opening it to effect spends it: it never works again.
        public let oneShot: Bool
        /// The links a new one of this kind ends unopened, for the same account (`link.superseded`).
        public let supersedes: Set<EmailLink>
        /// Whether a new one can be asked for once it expired: a revert link comes only with an email change.
        public var requestable: Bool = true
    }

    /// The table.
    public var rules: Rules {
        switch self {
        case .reauth: Rules(lifetime: LinkLifetimes.reauth, oneShot: true, supersedes: [.reauth])
        // One pending change at a time, whether it changes the address or adds one.
        case .emailChange, .emailAdd:
            Rules(lifetime: LinkLifetimes.emailChange, oneShot: true, supersedes: [.emailChange, .emailAdd])
        // Each change's way back stays open on its own: a later change does not close an earlier one's.
        case .emailRevert:
            Rules(lifetime: LinkLifetimes.emailRevert, oneShot: true, supersedes: [], requestable: false)
        case .register: Rules(lifetime: LinkLifetimes.registration, oneShot: true, supersedes: [.register])
        case .recovery: Rules(lifetime: LinkLifetimes.recovery, oneShot: true, supersedes: [.recovery])
        case .passwordReset:
            Rules(lifetime: LinkLifetimes.passwordReset, oneShot: true, supersedes: [.passwordReset])
        }
    }
}
