import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// A screen whose field is an address to send something to (a sign-in code, a reset or recovery link). The
/// field, its inline error and the server's 429 for the typed address behave alike on each: typing, the
/// check before any call, the refusals, the banner and its countdown are here, once. The screens differ in
/// what they send and where the answer leads. It stays beside the app's other building blocks rather than
/// in a feature: SignIn's "Continue with email" and the link requests (`LinkRequestScreen`) both conform,
/// and neither feature owns the other.
protocol EmailEntryScreen: ScreenModel {
    var email: TextField { get set }
    var isWorking: Bool { get set }
    var error: String? { get set }
    /// The server's 429 for this address: sending it is off until the limit passes.
    var limit: RateLimit? { get set }
    static var offlineText: String { get }
}

extension EmailEntryScreen {
    /// Seed 002's and 003's words.
    static var invalidText: String { OnScreenMessage.invalidEmail.text }

    var typed: String { EmailRules.normalized(email.value) }

    public var takesText: Bool { true }
    public var needsClock: Bool { limit != nil }

    public func banner(_ context: ScreenContext) -> Banner? { limitBanner(context) }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { editEmail(event) }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let limit, context.now >= limit.until { self.limit = nil }
        return []
    }

    func isLimited(_ context: ScreenContext) -> Bool {
        limit?.applies(to: typed.lowercased(), at: context.now) ?? false
    }

    func canSubmit(_ context: ScreenContext) -> Bool { !isWorking && !typed.isEmpty && !isLimited(context) }

    /// Enter: the address to send to, with the screen now working; nil when there is nothing to send or
    /// the address fails the check (the error says why).
    mutating func addressToSend(_ context: ScreenContext) -> String? {
        guard canSubmit(context) else { return nil }
        guard EmailRules.isValid(typed) else {
            error = Self.invalidText
            return nil
        }
        isWorking = true
        error = nil
        return typed
    }

    /// Typing or a paste into the field (the screen's `handle`); nil when the field has no use for it.
    mutating func editEmail(_ event: InputEvent) -> [Command]? {
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        let before = email.value
        guard email.handle(event) else { return nil }
        if email.value != before { error = nil }
        return []
    }

    /// The send went through: the field is free again, and a limit for the address is over.
    mutating func sent() {
        isWorking = false
        limit = nil
    }

    /// A refused send: the words under the field, or for a 429 with a wait its countdown. A 429 naming no
    /// wait shows `rateLimitedText` when given (never an invented countdown), else the server's words.
    mutating func sendFailed(_ failure: APIError, _ context: ScreenContext, rateLimitedText: String? = nil) {
        isWorking = false
        switch failure {
        case .invalid:
            error = Self.invalidText
        case .rateLimited(let retryAfter?, let message, let kind):
            error = nil
            limit = RateLimit(
                target: typed.lowercased(), until: context.now + TimeInterval(retryAfter), kind: kind, message: message)
        case .rateLimited(nil, _, _) where rateLimitedText != nil:
            error = rateLimitedText
        case .offline:
            error = Self.offlineText
        default:
            error = failure.message
        }
    }

    func limitBanner(_ context: ScreenContext) -> Banner? { limit?.banner(for: typed.lowercased(), at: context.now) }

    /// The field as drawn: focused unless a send is under way, with the error under it.
    var shownEmail: TextField {
        var field = email
        field.isFocused = !isWorking
        field.isDisabled = isWorking
        field.error = error
        return field
    }
}
