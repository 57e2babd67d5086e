import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The recovery link is on its way, or not: the backend answers the same whether or not an account
/// uses the address, and so does this screen. The link is opened from the outbox or pasted; Resend
/// waits for the server's `resend_after`; support is the way left when the email is lost too.
public struct RecoverySentScreen: ScreenModel {
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

    public var id: String { "recovery-sent" }
    public var needsClock: Bool { !canResend }

    static let editKey = Key.character("e")
    static let supportKey = Key.character("s")
    static let resendKeys: [Key] = [.enter, .character("r")]
    static let resentText = "We sent a new link. Earlier links no longer work."
    static let notALinkText = "That doesn't look like the link from the email. Paste the whole link."

    static func sentText(_ email: String) -> String {
        "If an account uses \(email), we've sent it a link to get back in. The link works once, for 24 hours."
    }

    func secondsLeft(_ context: ScreenContext) -> Int { Banner.secondsLeft(until: resendAfter, now: context.now) }

    public enum Intent: Sendable { case openOutbox, resend, editEmail, contactSupport }
    public enum Reply: Equatable, Sendable { case resend(Result<RecoveryStarted, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if context.options.hasReferenceBackend { bindings.append(.outbox("Open the link", .openOutbox)) }
        if secondsLeft(context) == 0 { bindings.append(KeyBinding(Self.resendKeys, "Resend link", .resend)) }
        bindings.append(KeyBinding([Self.editKey], "Edit email", .editEmail))
        bindings.append(KeyBinding([Self.supportKey], "Contact support", .contactSupport))
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .openOutbox: return [.showOutbox]
        // Back to the field with the address as typed: the screen below sent it.
        case .editEmail: return [.pop]
        case .contactSupport: return [.push(ContactSupportScreen(userId: context.methods?.userId))]
        case .resend:
            guard !isResending else { return [] }
            isResending = true
            error = nil
            return [.call(Endpoint.StartRecovery(email: email), Reply.resend)]
        }
    }

    /// A paste reaches a screen that takes no typing: the link from the mail, tapped.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .paste(let text) = event else { return nil }
        return openLink(text, context)
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isResending = false
        switch reply {
        case .resend(.success(let started)):
            resendAfter = started.resendAfter
            canResend = false
            return [.showToast(Self.resentText)]
        case .resend(.failure(.rateLimited(let retryAfter, _, _))):
            error = RecoveryRequestScreen.rateLimitedText
            if let retryAfter {
                resendAfter = context.now + TimeInterval(retryAfter)
                canResend = false
            }
        case .resend(.failure(.offline)):
            error = RecoveryRequestScreen.offlineText
        case .resend(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if !canResend, secondsLeft(context) == 0 {
            canResend = true
            if error == RecoveryRequestScreen.rateLimitedText { error = nil }
        }
        return []
    }

    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard AccountRecoveryLink().accepts(message), let token = message.token else { return nil }
        return [.push(Self.opening(token: token, context))]
    }

    /// The link pasted from the mail (or just its token) opens as if tapped; the backend judges it.
    public mutating func openLink(_ text: String, _ context: ScreenContext) -> [Command]? {
        guard let token = PastedLink.token(from: text) else {
            error = Self.notALinkText
            return []
        }
        error = nil
        return [.push(Self.opening(token: token, context))]
    }

    static func opening(token: String, _ context: ScreenContext) -> VerifyingLinkScreen {
        VerifyingLinkScreen(link: AnyLinkPurpose(AccountRecoveryLink()), token: token, shownAt: context.now)
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
        canvas.paragraph("Wrong address? Edit email (e)", style: .muted, spacing: 0)
        canvas.paragraph("Lost your phone and this email too? Contact support (s)", style: .muted)
    }
}
