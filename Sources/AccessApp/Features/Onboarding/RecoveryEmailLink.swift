import AccessAPI

/// The registration link sent to the recovery email, opened while "Verify your email" waits for it:
/// the answer goes back to that screen, which asks where onboarding stands now.
public struct RecoveryEmailLink: LinkPurpose {
    public init() {}
    /// Sent again from "Verify your email", which knows the address.
    public var resend: AnyRequest? { nil }
    public func confirm(token: String) -> AnyRequest { AnyRequest(ConfirmRegistration(token: token)) }
    public func confirmed(_ reply: AnyValue, _ context: ScreenContext) -> [Command]? {
        guard let confirmed = reply.as(RegistrationConfirmed.self) else { return nil }
        return [.returnTo(VerifyRecoveryEmailScreen.self, with: confirmed)]
    }
    public func accepts(_ message: OutboxMessage) -> Bool { RegistrationLink().accepts(message) }
    public var canEditAddress: Bool { false }
    public var linkPath: String { RegistrationLink().linkPath }
    public var lifetimeText: String { RegistrationLink.lifetimeText }
}
