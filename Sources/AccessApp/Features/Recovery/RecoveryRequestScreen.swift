import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Can't access your account?" (seed 003): the recovery email, checked here first, then a link to
/// it. Whatever the backend knows about the address, the next screen says the same thing.
public struct RecoveryRequestScreen: EmailEntryScreen {
    public var email: TextField
    public var isWorking: Bool
    public var error: String?
    /// The server's 429 for this address: sending is off, counted down, until it passes.
    public var limit: RateLimit?

    public init(email: String = "", isWorking: Bool = false, error: String? = nil, limit: RateLimit? = nil) {
        self.email = TextField(
            label: "Recovery email", value: email, placeholder: "name@example.com",
            maxLength: EmailRules.maximumLength)
        self.isWorking = isWorking
        self.error = error
        self.limit = limit
    }

    /// Seed 003's error copy.
    public static let rateLimitedText = "For security reasons, please wait before requesting another recovery"
    static let offlineText = "No internet connection. Check it and try again."

    public var id: String { "recovery-request" }
    public var takesText: Bool { true }
    public var needsClock: Bool { limit != nil }

    public enum Intent: Sendable { case send }
    public enum Reply: Equatable, Sendable { case start(Result<RecoveryStarted, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [KeyBinding([.enter], "Send link", .send)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard let address = addressToSend(context) else { return [] }
        return [.call(Endpoint.StartRecovery(email: address), Reply.start)]
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        editEmail(event)
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .start(.success(let started)):
            isWorking = false
            limit = nil
            return [.push(RecoverySentScreen(email: started.email, resendAfter: started.resendAfter))]
        case .start(.failure(let failure)):
            sendFailed(failure, context, rateLimitedText: Self.rateLimitedText)
            return []
        }
    }

    public func banner(_ context: ScreenContext) -> Banner? { limitBanner(context) }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        expireLimit(context)
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(
            "Can't access your account?",
            subtitle: "Enter the email you added for recovery. We'll send it a link to get back in.")
        canvas.field(shownEmail)
        if let limit, isLimited(context) {
            let left = Banner.secondsLeft(until: limit.until, now: context.now)
            canvas.paragraph(Self.rateLimitedText, style: .danger, spacing: 0)
            canvas.centered("Try again in \(TextLayout.countdown(seconds: left))", style: .muted)
        } else {
            canvas.button(
                "Send link", working: "Sending link…", isReady: canSubmit(context), isFocused: false,
                isWorking: isWorking)
        }
    }
}
