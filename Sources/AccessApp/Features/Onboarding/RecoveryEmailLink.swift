import AccessAPI
import AccessCore

/// The registration link sent to the recovery email, opened while "Verify your email" waits for it:
/// the answer goes back to that screen, which asks where onboarding stands now.
struct RecoveryEmailLink: LinkPurpose {
    /// Where the link went, when known: "Request a new link" goes back to "Verify your email" for it.
    var email: String?

    public init(email: String? = nil) { self.email = email }
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
    /// "Request a new link": "Verify your email" for the address, whose Resend sends one (issue 46 item 5: the
    /// expired screen said "Request a new one" and offered only support).
    public var newLinkScreen: (any ScreenModel)? { email.map { VerifyRecoveryEmailScreen(email: $0) } }
    public func sent(to address: String) -> RecoveryEmailLink { RecoveryEmailLink(email: address) }
}
