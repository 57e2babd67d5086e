import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Continue with email (seed 004): the address, checked here first (seed 002's "Please enter a valid
/// email address"), then a 6-digit code by email on the shared code screen.
public struct SignInEmailScreen: ScreenModel {
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

    public static let invalidText = "Please enter a valid email address"
    static let offlineText = "No internet connection"

    public var id: String { "sign-in-email" }
    public var takesText: Bool { true }
    public var needsClock: Bool { limit != nil }

    var typed: String { EmailRules.normalized(email.value) }

    func canSubmit(_ context: ScreenContext) -> Bool {
        !isWorking && !typed.isEmpty && !(limit?.applies(to: typed.lowercased(), at: context.now) ?? false)
    }

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([KeyBinding([.enter], "Send code")])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        switch event {
        case .key(.escape):
            return nil
        case .key(.enter):
            guard canSubmit(context) else { return [] }
            guard EmailRules.isValid(typed) else {
                error = Self.invalidText
                return []
            }
            isWorking = true
            error = nil
            return [.request(StartSignInCode(channel: .email, destination: typed))]
        default:
            guard !isWorking else { return event.isTextEditing ? [] : nil }
            let before = email.value
            guard email.handle(event) else { return nil }
            if email.value != before { error = nil }
            return []
        }
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    ) -> [Command] {
        isWorking = false
        switch result {
        case .success(let reply):
            guard let challenge = reply.as(SignInChallenge.self) else { return [] }
            limit = nil
            return [.push(EnterCodeScreen(signIn: challenge))]
        case .failure(.invalid):
            error = Self.invalidText
        case .failure(.rateLimited(let retryAfter?, _)):
            limit = RateLimit(target: typed.lowercased(), until: context.now + TimeInterval(retryAfter))
        case .failure(.offline):
            error = Self.offlineText
        case .failure(let failure):
            error = failure.message
        }
        return []
    }

    public func banner(_ context: ScreenContext) -> Banner? { limit?.banner(for: typed.lowercased(), at: context.now) }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let limit, context.now >= limit.until { self.limit = nil }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Continue with email", subtitle: "We'll email you a code. New here? This creates your account.")
        var field = email
        field.isFocused = !isWorking
        field.isDisabled = isWorking
        field.error = error
        canvas.field(field)
        canvas.button(
            "Send code", working: "Sending code…", isReady: canSubmit(context), isFocused: false, isWorking: isWorking)
    }
}
