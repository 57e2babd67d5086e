import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Forgot password?" from Log in or from recovery's password screen: the account's email, checked here
/// first, then a one-shot link to it. Whatever the backend knows about the address, the next screen says
/// the same thing.
public struct ForgotPasswordScreen: EmailEntryScreen {
    public var email: TextField
    public var isWorking: Bool
    public var error: String?
    /// The server's 429 for this address: sending is off, counted down, until it passes.
    public var limit: RateLimit?

    public init(email: String = "", isWorking: Bool = false, error: String? = nil, limit: RateLimit? = nil) {
        self.email = TextField(
            label: "Email", value: email, placeholder: "name@example.com", maxLength: EmailRules.maximumLength)
        self.isWorking = isWorking
        self.error = error
        self.limit = limit
    }

    static let offlineText = "No internet connection. Check it and try again."

    public var id: String { "forgot-password" }
    public var takesText: Bool { true }
    public var needsClock: Bool { limit != nil }

    public enum Intent: Sendable { case send }
    public enum Reply: Equatable, Sendable { case request(Result<PasswordResetRequested, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [KeyBinding([.enter], "Send link", .send)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard let address = addressToSend(context) else { return [] }
        return [.call(Endpoint.RequestPasswordReset(email: address), Reply.request)]
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        editEmail(event)
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .request(.success(let requested)):
            isWorking = false
            limit = nil
            return [.push(ResetSentScreen(email: requested.email, resendAfter: requested.resendAfter))]
        case .request(.failure(let failure)):
            sendFailed(failure, context)
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
            "Forgot password?",
            subtitle: "Enter the email you log in with. We'll send it a link to set a new password.")
        canvas.field(shownEmail)
        if let limit, isLimited(context) {
            // The banner's words for the limit that fired: "Resend in" for the gap between sends, a cap named.
            let left = Banner.secondsLeft(until: limit.until, now: context.now)
            canvas.centered(
                "\(RateLimit.wait(limit.kind).lead) \(TextLayout.countdown(seconds: left))", style: .muted)
        } else {
            canvas.button(
                "Send link", working: "Sending link…", isReady: canSubmit(context), isFocused: false,
                isWorking: isWorking)
        }
    }
}
