import AccessAPI
import Foundation
import TerminalKit

/// "Check your email": the re-auth link went out; the screen waits for the user to open it
/// (seed 000: not auto-advancing). Here the link is opened from the outbox panel.
///
/// No "Wrong address? Edit email" here: the link goes to the email already on the account,
/// and changing that address is itself a sensitive change that needs this very verification.
public struct CheckEmailScreen: ScreenModel {
    public static let resendCooldown: TimeInterval = 30

    public var flow: AnyFlow
    public var sentTo: String
    public var sentAt: Date
    /// The countdown has run out; kept so the clock stops once "Resend link" is offered.
    public var canResend: Bool
    public var isResending: Bool
    public var error: String?
    /// The server's 429 on resending: no resend, and a countdown banner, until it passes.
    public var limit: RateLimit?

    public init(
        flow: AnyFlow, sentTo: String, sentAt: Date, canResend: Bool = false, isResending: Bool = false,
        error: String? = nil, limit: RateLimit? = nil
    ) {
        self.limit = limit
        self.flow = flow
        self.sentTo = sentTo
        self.sentAt = sentAt
        self.canResend = canResend
        self.isResending = isResending
        self.error = error
    }

    public var id: String { "check-email" }
    public var needsClock: Bool { !canResend }

    var resendAt: Date { max(sentAt.addingTimeInterval(Self.resendCooldown), limit?.until ?? .distantPast) }

    public func banner(_ context: ScreenContext) -> Banner? { limit?.banner(at: context.now) }

    func secondsLeft(_ context: ScreenContext) -> Int { Banner.secondsLeft(until: resendAt, now: context.now) }

    public func keymap(_ context: ScreenContext) -> Keymap {
        var bindings: [KeyBinding] = []
        if context.options.hasReferenceBackend { bindings.append(KeyBinding(OutboxPanel.keys, "Open the link")) }
        if secondsLeft(context) == 0 { bindings.append(KeyBinding([.enter, .character("r")], "Resend link")) }
        return Keymap(bindings)
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event, [.enter, .character("r")].contains(key) else { return nil }
        // Resend exists only once the countdown is over, as the keymap says.
        guard secondsLeft(context) == 0 else { return nil }
        guard !isResending else { return [] }
        isResending = true
        error = nil
        return [.request(SendReauthLink())]
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    )
        -> [Command]
    {
        isResending = false
        switch result {
        case .success(let reply):
            guard let sent = reply.as(EmailLinkSent.self) else { return [] }
            sentTo = sent.sentTo
            sentAt = context.now
            canResend = false
            return []
        case .failure(.rateLimited(let retryAfter, let message)):
            error = message
            limit = RateLimit(until: context.now.addingTimeInterval(TimeInterval(retryAfter)))
            canResend = false
            return []
        case .failure(let failure):
            error = failure.message
            return []
        }
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let limit, context.now >= limit.until {
            self.limit = nil
            error = nil
        }
        if !canResend, secondsLeft(context) == 0 { canResend = true }
        return []
    }

    public mutating func use(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard message.outboxKind == .reauthLink, let token = message.token else { return nil }
        return [.push(VerifyingLinkScreen(flow: flow, token: token, shownAt: context.now))]
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Check your email")
        canvas.paragraph("We sent a verification link to \(sentTo). Tap it to confirm.")
        let left = secondsLeft(context)
        if left > 0 {
            canvas.paragraph("Resend link in \(TextLayout.countdown(seconds: left))", style: .muted)
        } else {
            canvas.row(ListRow("Resend link", control: .chevron, isSelected: true, isDisabled: isResending))
        }
        if isResending { canvas.paragraph("Sending…", style: .muted) }
        if let error { canvas.paragraph(error, style: .danger) }
    }
}
