import AccessAPI
import AccessCore

/// The recovery link (`…/recover?token=…`): opening it checks the token and asks for the password.
struct AccountRecoveryLink: LinkPurpose {
    public init() {}
    /// A new link needs the address, which an expired token no longer tells: the request screen asks.
    public var resend: NoResend? { nil }
    public func confirm(token: String) -> CheckRecoveryLink { CheckRecoveryLink(token: token) }
    public func confirmed(_ checked: CheckedRecoveryLink, _ context: ScreenContext) -> [Command] {
        // Signed in already: finishing would swap this session for a limited one, perhaps another account's.
        // Checking does not spend the link, so it still works after a log out.
        guard !context.isSignedIn else { return [.pop, .showToast(Self.signedInText)] }
        return [.replaceTop(RecoveryPasswordScreen(email: checked.link.email, token: checked.token))]
    }
    static let signedInText = "You're already signed in. Log out to use this recovery link."
    public var opensSignedIn: Bool { false }
    public func accepts(_ message: OutboxMessage) -> Bool { message.outboxKind == .recoveryLink }
    /// The person typed the address on the screen that asked for the link.
    public var canEditAddress: Bool { true }
    public var linkPath: String { "recover" }
    public var kind: EmailLink { .recovery }
    public var newLinkScreen: (any ScreenModel)? { RecoveryRequestScreen() }
    public var lifetimeText: String {
        "Recovery links work once, for \(RuleText.duration(kind.rules.lifetime))."
    }
}
