import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Continue with email (seed 004): the address, checked here first (seed 002's "Please enter a valid
/// email address"), then a 6-digit code by email on the shared code screen.
public struct SignInEmailScreen: EmailEntryScreen {
    public var email: TextField
    public var isWorking: Bool
    public var error: String?
    /// The server's 429 for this address: sending it is off until the limit passes.
    public var limit: RateLimit?

    public init(email: String = "", isWorking: Bool = false, error: String? = nil, limit: RateLimit? = nil) {
        self.email = TextField(
            label: "Email", value: email, placeholder: "name@example.com", maxLength: EmailRules.maximumLength)
        self.isWorking = isWorking
        self.error = error
        self.limit = limit
    }

    static let offlineText = "No internet connection"

    public var id: String { "sign-in-email" }
    public var takesText: Bool { true }
    public var needsClock: Bool { limit != nil }

    public enum Intent: Sendable { case send }
    public enum Reply: Equatable, Sendable { case code(Result<SignInChallenge, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [KeyBinding([.enter], "Send code", .send)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard let address = addressToSend(context) else { return [] }
        return [.call(StartSignInCode(channel: .email, destination: address), Reply.code)]
    }

    /// Typing and pasting the address.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { editEmail(event) }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .code(.success(let challenge)):
            isWorking = false
            limit = nil
            return [.push(EnterCodeScreen(signIn: challenge, channel: .email))]
        case .code(.failure(let failure)):
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
        canvas.title("Continue with email", subtitle: "We'll email you a code. New here? This creates your account.")
        canvas.field(shownEmail)
        canvas.button(
            "Send code", working: "Sending code…", isReady: canSubmit(context), isFocused: false, isWorking: isWorking)
    }
}
