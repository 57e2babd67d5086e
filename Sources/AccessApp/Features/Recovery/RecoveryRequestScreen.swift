/// "Can't access your account?" (seed 003): the recovery email, checked here first, then a link to it
/// (`RecoverySentScreen`).
public typealias RecoveryRequestScreen = LinkRequestScreen<RecoveryRequest>

public enum RecoveryRequest: LinkRequestFlow {
    public typealias Sent = RecoverySent
    public static let screen = LinkRequestDescription(
        id: "recovery-request", title: "Can't access your account?",
        subtitle: "Enter the email you added for recovery. We'll send it a link to get back in.",
        fieldLabel: "Recovery email")
}
