import AccessAPI
import AccessCore

/// The registration link sent to the recovery email, opened while "Verify your email" waits for it:
/// the answer goes back to that screen, which asks where onboarding stands now.
struct RecoveryEmailLink: LinkPurpose {
    public init() {}
    /// Sent again from "Verify your email", which knows the address.
    public var resend: NoResend? { nil }
    public func confirm(token: String) -> Endpoint.ConfirmRegistration { Endpoint.ConfirmRegistration(token: token) }
    public func confirmed(_ confirmed: RegistrationConfirmed, _ context: ScreenContext) -> [Command] {
        [.returnTo(VerifyRecoveryEmailScreen.self, with: confirmed)]
    }
    public func accepts(_ message: OutboxMessage) -> Bool { RegistrationLink().accepts(message) }
    public var canEditAddress: Bool { false }
    public var linkPath: String { RegistrationLink().linkPath }
    public var kind: EmailLink { .register }
}
