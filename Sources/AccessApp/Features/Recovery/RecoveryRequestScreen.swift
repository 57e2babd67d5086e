import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Can't access your account?" (seed 003): the recovery email, checked here first, then a link to
/// it. Whatever the backend knows about the address, the next screen says the same thing.
public struct RecoveryRequestScreen: ScreenModel {
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
    public static let invalidText = "Please enter a valid email address"
    public static let rateLimitedText = "For security reasons, please wait before requesting another recovery"
    static let offlineText = "No internet connection. Check it and try again."

    public var id: String { "recovery-request" }
    public var takesText: Bool { true }
    public var needsClock: Bool { limit != nil }

    var typed: String { EmailRules.normalized(email.value) }

    func isLimited(_ context: ScreenContext) -> Bool {
        limit?.applies(to: typed.lowercased(), at: context.now) ?? false
    }

    func canSubmit(_ context: ScreenContext) -> Bool { !isWorking && !typed.isEmpty && !isLimited(context) }

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([KeyBinding([.enter], "Send link")])
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
            return [.request(StartRecovery(email: typed))]
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
            guard let started = reply.as(RecoveryStarted.self) else { return [] }
            limit = nil
            return [.push(RecoverySentScreen(email: started.email, resendAfter: started.resendAfter))]
        case .failure(.invalid):
            error = Self.invalidText
        case .failure(.rateLimited(let retryAfter?, _)):
            error = nil
            limit = RateLimit(target: typed.lowercased(), until: context.now + TimeInterval(retryAfter))
        case .failure(.rateLimited(nil, _)):
            // No wait named: the words, and no invented countdown.
            error = Self.rateLimitedText
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
        canvas.title(
            "Can't access your account?",
            subtitle: "Enter the email you added for recovery. We'll send it a link to get back in.")
        var field = email
        field.isFocused = !isWorking
        field.isDisabled = isWorking
        field.error = error
        canvas.field(field)
        if let limit, limit.applies(to: typed.lowercased(), at: context.now) {
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
