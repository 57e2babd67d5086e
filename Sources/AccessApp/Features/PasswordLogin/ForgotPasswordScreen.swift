/// "Forgot password?" from Log in or from recovery's password screen: the account's email, checked here
/// first, then a one-shot link to it (`ResetSentScreen`).
public typealias ForgotPasswordScreen = LinkRequestScreen<ForgotPassword>

public enum ForgotPassword: LinkRequestFlow {
    public typealias Sent = ResetSent
    public static let screen = LinkRequestDescription(
        id: "forgot-password", title: "Forgot password?",
        subtitle: "Enter the email you log in with. We'll send it a link to set a new password.", fieldLabel: "Email")
}
