import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The reset link is on its way, or not: the backend answers the same whether or not an account uses the
/// address, and so does this screen. The link is opened from the outbox or pasted; Resend waits for the
/// server's `resend_after`.
public struct ResetSentScreen: ScreenModel {
    public var email: String
    /// The backend takes another request for this address from then on (its cooldown or its 429).
    public var resendAfter: Date
    /// The countdown has run out; kept so the clock stops once Resend is offered.
    public var canResend: Bool
    public var isResending: Bool
    public var error: String?

    public init(
        email: String, resendAfter: Date, canResend: Bool = false, isResending: Bool = false, error: String? = nil
    ) {
        self.email = email
        self.resendAfter = resendAfter
        self.canResend = canResend
        self.isResending = isResending
        self.error = error
    }

    public var id: String { "reset-sent" }
    public var needsClock: Bool { !canResend }

    static let editKey = Key.character("e")
    static let resendKeys: [Key] = [.enter, .character("r")]
    static let resentText = "We sent a new link. Earlier links no longer work."

    static func sentText(_ email: String) -> String {
        "If an account uses \(email), we've sent it a link to set a new password. The link works once, for 30 minutes."
    }

    func secondsLeft(_ context: ScreenContext) -> Int { Banner.secondsLeft(until: resendAfter, now: context.now) }

    public enum Intent: Sendable { case openOutbox, resend, editEmail }
    public enum Reply: Equatable, Sendable { case resend(Result<PasswordResetRequested, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if context.options.hasReferenceBackend { bindings.append(.outbox("Open the link", .openOutbox)) }
        if secondsLeft(context) == 0 { bindings.append(KeyBinding(Self.resendKeys, "Resend link", .resend)) }
        bindings.append(KeyBinding([Self.editKey], "Edit email", .editEmail))
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .openOutbox: return [.showOutbox]
        // Back to the field with the address as typed: the screen below sent it.
        case .editEmail: return [.pop]
        case .resend:
            guard !isResending else { return [] }
            isResending = true
            error = nil
            return [.call(Endpoint.RequestPasswordReset(email: email), Reply.resend)]
        }
    }

    /// A paste reaches a screen that takes no typing: the link from the mail, tapped.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .paste(let text) = event else { return nil }
        guard let token = PastedLink.token(from: text) else {
            error = RecoverySentScreen.notALinkText
            return []
        }
        error = nil
        return [.push(Self.opening(token: token, email: email, context))]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isResending = false
        switch reply {
        case .resend(.success(let requested)):
            resendAfter = requested.resendAfter
            canResend = false
            return [.showToast(Self.resentText)]
        case .resend(.failure(.rateLimited(let retryAfter?, _, _))):
            resendAfter = context.now + TimeInterval(retryAfter)
            canResend = false
        case .resend(.failure(.offline)):
            error = ForgotPasswordScreen.offlineText
        case .resend(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if !canResend, secondsLeft(context) == 0 { canResend = true }
        return []
    }

    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard ForgotPasswordLink().accepts(message), let token = message.token else { return nil }
        return [.push(Self.opening(token: token, email: message.to, context))]
    }

    static func opening(token: String, email: String, _ context: ScreenContext) -> VerifyingLinkScreen {
        VerifyingLinkScreen(
            link: AnyLinkPurpose(ForgotPasswordLink(email: email)), token: token, shownAt: context.now)
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Check your email")
        canvas.paragraph(Self.sentText(email))
        let open = context.options.hasReferenceBackend ? "Open it from the outbox (Ctrl+O), or paste" : "Paste"
        canvas.paragraph("\(open) the link here to open it.", style: .muted)
        let left = secondsLeft(context)
        if left > 0 {
            canvas.paragraph("Resend link in \(TextLayout.countdown(seconds: left))", style: .muted)
        } else {
            canvas.row(ListRow("Resend link", control: .chevron, isSelected: true, isDisabled: isResending))
        }
        if isResending { canvas.paragraph("Sending…", style: .muted) }
        if let error { canvas.paragraph(error, style: .danger) }
        canvas.paragraph("Wrong address? Edit email (e)", style: .muted)
    }
}
