import AccessAPI
import AccessCore
import Foundation

/// The link a registration emails (`…/confirm-account?token=…`): opening it verifies the address, and
/// the person logs in.
struct RegistrationLink: LinkPurpose {
    /// Where the link went, when known (opened from the outbox or from "Please verify your email"): another
    /// can then be asked for there.
    var email: String?

    public init(email: String? = nil) { self.email = email }
    /// Sent again from "Check your email to verify your account", which knows the address.
    public var resend: NoResend? { nil }
    public func confirm(token: String) -> Endpoint.ConfirmRegistration { Endpoint.ConfirmRegistration(token: token) }
    public func confirmed(_ confirmed: RegistrationConfirmed, _ context: ScreenContext) -> [Command] {
        // Signed in already (the link opened from another account's session): nothing to log in to.
        guard context.methods == nil else {
            var commands: [Command] = [.pop, .showToast(PasswordLoginScreen.verifiedSignedInText(confirmed.email))]
            // This account's own recovery email (Settings' reminder): verified now.
            if var profile = context.profile, let email = profile.email, EmailRules.same(email, confirmed.email) {
                profile.emailVerified = true
                commands.insert(.setProfile(profile), at: 0)
            }
            return commands
        }
        return [
            .resetStack(SignInScreen.selecting(.password, context)),
            .push(
                PasswordLoginScreen(email: confirmed.email, notice: PasswordLoginScreen.verifiedText(confirmed.email))),
        ]
    }
    public func accepts(_ message: OutboxMessage) -> Bool {
        message.outboxKind == .emailVerifyLink && message.purpose == Self.purpose
    }
    public var canEditAddress: Bool { false }
    public var linkPath: String { "confirm-account" }
    public var kind: EmailLink { .register }
    /// "Request a new link": "Please verify your email" for the address, whose Resend sends one (issue 28 item 3).
    public var newLinkScreen: (any ScreenModel)? {
        email.map { VerifyAccountScreen(email: $0, justRegistered: false) }
    }
    public func sent(to address: String) -> RegistrationLink { RegistrationLink(email: address) }

    /// The outbox purpose of the reference backend's registration links.
    static let purpose = "register"
}
