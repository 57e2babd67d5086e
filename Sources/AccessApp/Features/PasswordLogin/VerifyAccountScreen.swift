import AccessAPI
import Foundation
import TerminalKit

/// Seed 002's email verification screen: after registering ("Check your email to verify your
/// account") or logging in before the link was opened ("Please verify your email"). Resend never says
/// whether the address has an account waiting; the link opened from the outbox, pasted here or
/// handed over by `accessdeck open-link` verifies the account, and the person logs in.
public struct VerifyAccountScreen: ScreenModel {
    public var email: String
    /// Straight after registering, rather than a login refused for an unverified address.
    public var justRegistered: Bool
    public var isWorking: Bool
    public var error: String?
    /// The server's wait before another email (30 s after a send, or a 429's): Resend counts down until then.
    public var resendAfter: Date?

    public init(
        email: String, justRegistered: Bool, isWorking: Bool = false, error: String? = nil, resendAfter: Date? = nil
    ) {
        self.email = email
        self.justRegistered = justRegistered
        self.isWorking = isWorking
        self.error = error
        self.resendAfter = resendAfter
    }

    public static let registeredTitle = "Check your email to verify your account"
    public static let unverifiedTitle = "Please verify your email"
    public static let resentText = "Verification email sent"

    public var id: String { "verify-account" }
    public var needsClock: Bool { resendAfter != nil }

    func canResend(_ context: ScreenContext) -> Bool { !isWorking && resendAfter.map { context.now >= $0 } ?? true }

    public enum Intent: Sendable { case outbox, resend, backToLogin }
    public enum Reply: Equatable, Sendable { case resend(Result<VerificationResent, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if context.options.hasReferenceBackend { bindings.append(.outbox("Outbox", .outbox)) }
        if canResend(context) { bindings.append(KeyBinding([.character("r")], "Resend verification", .resend)) }
        bindings.append(KeyBinding([.enter], "Back to login", .backToLogin))
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .outbox:
            return [.showOutbox]
        case .backToLogin:
            // The form below may still be on Register (straight after registering): back to Log in.
            return [.returnTo(PasswordLoginScreen.self, with: PasswordLoginScreen.BackToLogin(email: email))]
        case .resend:
            guard canResend(context) else { return [] }
            isWorking = true
            error = nil
            return [.call(Endpoint.ResendRegistrationLink(email: email), Reply.resend)]
        }
    }

    /// A paste reaches a screen that takes no typing: the link from the mail, tapped.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .paste(let text) = event else { return nil }
        return openLink(text, context)
    }

    public mutating func openLink(_ text: String, _ context: ScreenContext) -> [Command]? {
        guard let token = PastedLink.token(from: text) else {
            error = CheckEmailScreen.notALinkText
            return []
        }
        error = nil
        return [
            .push(
                VerifyingLinkScreen(
                    link: AnyLinkPurpose(RegistrationLink(email: email)), token: token, shownAt: context.now))
        ]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .resend(.success):
            // The next email waits the server's 30 s: the countdown shows at once, as Verify and Settings do.
            resendAfter = context.now + RateLimit.sendCooldown
            return [.showToast(Self.resentText)]
        case .resend(.failure(.rateLimited(let retryAfter?, _, _))):
            resendAfter = context.now + TimeInterval(retryAfter)
        case .resend(.failure(.offline)):
            error = PasswordLoginScreen.offlineText
        case .resend(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let resendAfter, context.now >= resendAfter { self.resendAfter = nil }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(justRegistered ? Self.registeredTitle : Self.unverifiedTitle)
        canvas.paragraph("We sent a verification link to \(email). Please check your inbox.")
        canvas.paragraph(CheckEmailScreen.pasteHint, style: .muted)
        if let error { canvas.paragraph(error, style: .danger) }
        if isWorking {
            canvas.centered("Sending…", style: .muted)
        } else if let resendAfter, context.now < resendAfter {
            let left = Banner.secondsLeft(until: resendAfter, now: context.now)
            canvas.centered("Resend in \(TextLayout.countdown(seconds: left))", style: .muted)
        } else {
            canvas.centered("[ Resend verification ]  r", style: Style.accent.with(.bold))
        }
        canvas.centered("[ Back to login ]  Enter", style: .bold)
    }
}
