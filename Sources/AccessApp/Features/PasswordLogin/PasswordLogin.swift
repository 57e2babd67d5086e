import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Email & password (seed 002, with seed 000's password rules): Log in and Register on one screen,
/// "Check your email to verify your account" after registering, and the emailed link (opened from the
/// outbox, pasted, or handed over by `accessdeck open-link`) that makes the account usable.
enum PasswordLoginFeature: Feature {
    static let screens: [any ScreenModel.Type] = [PasswordLoginScreen.self, VerifyAccountScreen.self]
}

/// The link a registration emails (`…/confirm-account?token=…`): opening it verifies the address, and
/// the person logs in.
struct RegistrationLink: LinkPurpose {
    public init() {}
    /// Sent again from "Check your email to verify your account", which knows the address.
    public var resend: NoResend? { nil }
    public func confirm(token: String) -> ConfirmRegistration { ConfirmRegistration(token: token) }
    public func confirmed(_ confirmed: RegistrationConfirmed, _ context: ScreenContext) -> [Command] {
        // Signed in already (the link opened from another account's session): nothing to log in to.
        guard context.methods == nil else {
            var commands: [Command] = [.pop, .showToast(PasswordLoginScreen.verifiedText(confirmed.email))]
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
    /// Seed 001's sentence for verification links, with this link's lifetime: a registration link works
    /// for 24 hours, not the 30 minutes of an email change's.
    public var lifetimeText: String { Self.lifetimeText }
    static let lifetimeText = "Verification links expire after 24 hours. Request a new one to try again."
    public var canEditAddress: Bool { false }
    public var linkPath: String { "confirm-account" }

    /// The outbox purpose of the reference backend's registration links.
    static let purpose = "register"
}

// MARK: - Requests

struct PasswordLogin: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> SignedIn {
        try await api.client.login(email: email, password: password.value)
    }
}

struct Register: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> Registered {
        try await api.client.register(email: email, password: password.value)
    }
}

struct ResendRegistrationLink: APIRequest {
    var email: String
    func perform(_ api: APIContext) async throws -> VerificationResent {
        try await api.client.resendRegistrationLink(email: email)
    }
}

struct ConfirmRegistration: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> RegistrationConfirmed {
        try await api.client.confirmRegistration(token: token)
    }
}
