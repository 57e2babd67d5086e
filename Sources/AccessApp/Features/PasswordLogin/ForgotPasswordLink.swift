import AccessAPI
import AccessCore

/// The password reset link (`…/reset-password?token=…`): opening it checks the token and asks for a new
/// password. Opened from the outbox, pasted, or handed over like every link (`LinkRouter`).
struct ForgotPasswordLink: LinkPurpose {
    /// Where the link went, when known: "Request a new link" asks again for that address.
    var email: String?

    public init(email: String? = nil) { self.email = email }
    /// A new link is asked for on "Forgot password?", which needs the address.
    public var resend: NoResend? { nil }
    public func confirm(token: String) -> CheckPasswordResetLink { CheckPasswordResetLink(token: token) }
    public func confirmed(_ checked: CheckedResetLink, _ context: ScreenContext) -> [Command] {
        // Signed in already: the reset would sign this session out too, perhaps of another account. Checking
        // does not spend the link, so it still works after a log out.
        guard !context.isSignedIn else { return [.pop, .showToast(Self.signedInText)] }
        return [.replaceTop(ResetPasswordScreen(email: checked.link.email, token: checked.token))]
    }
    static let signedInText = "You're already signed in. Log out to use this reset link."
    public func accepts(_ message: OutboxMessage) -> Bool { message.outboxKind == .passwordResetLink }
    /// The person typed the address on the screen that asked for the link.
    public var canEditAddress: Bool { true }
    public var linkPath: String { "reset-password" }
    public var kind: EmailLink { .passwordReset }
    public var newLinkScreen: (any ScreenModel)? { ForgotPasswordScreen(email: email ?? "") }
    public var lifetimeText: String {
        "Reset links work once, for \(RuleText.duration(kind.rules.lifetime))."
    }
    public func sent(to address: String) -> ForgotPasswordLink { ForgotPasswordLink(email: address) }
    public var opensSignedIn: Bool { false }
    /// Seed 000: a signed-in person changes the password from Email & password (after "Verify it's you"), reached
    /// through the hub, which loads the methods it shows.
    public var signedInInstead: (title: String, screens: [any ScreenModel])? {
        ("Change password", [HubScreen(), EmailPasswordScreen(selection: .changePassword)])
    }
}
