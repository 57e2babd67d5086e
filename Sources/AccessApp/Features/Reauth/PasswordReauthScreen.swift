import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Verify it's you" with the current password. The password lives in the field only until
/// it is sent: submitting empties the field, so a wrong password is retyped, not edited.
public struct PasswordReauthScreen: ScreenModel {
    public enum Focus: Equatable, Sendable {
        case field
        /// "Forgot it? Use another way": back to the picker.
        case anotherWay
    }

    public var flow: AnyFlow
    public var field: TextField
    public var focus: Focus
    public var isWorking: Bool
    /// Password re-auth is locked until then (429); the banner shows the countdown.
    public var lockedUntil: Date?
    /// Which limit the lock is, as the answer named it: the banner's words (issue 46 item 5).
    public var lockKind: RateLimitKind?

    public init(
        flow: AnyFlow, password: String = "", focus: Focus = .field, isWorking: Bool = false,
        error: String? = nil, lockedUntil: Date? = nil, lockKind: RateLimitKind? = nil
    ) {
        self.flow = flow
        field = TextField(
            label: "Current password", value: password, isMasked: true, error: error, isFocused: focus == .field,
            maxLength: Self.maxLength)
        self.focus = focus
        self.isWorking = isWorking
        self.lockedUntil = lockedUntil
        self.lockKind = lockKind
    }

    public var id: String { "password-reauth" }

    /// Passwords are at most 128 characters (the backend's rule too): a runaway paste stops there.
    static let maxLength = PasswordRules.maximumLength

    /// The lock's one wording under the field, live and in the gallery (seed 000 has none): the banner says
    /// which limit it is and counts it down, so this only says what works meanwhile.
    static let lockedText = "Password sign-in is locked for now. Verify another way."
    static let lastTryText =
        "One try left, then password sign-in locks for \(RuleText.duration(PasswordAttemptRules.window))."
    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { .password }
    public var needsClock: Bool { lockedUntil != nil }

    public func banner(_ context: ScreenContext) -> Banner? {
        lockedUntil.flatMap { RateLimit(until: $0, kind: lockKind).banner(at: context.now) }
    }

    public var error: String? { field.error }

    func isLocked(_ context: ScreenContext) -> Bool {
        lockedUntil.map { context.now < $0 } ?? false
    }

    public enum Intent: Sendable { case next, previous, verify, anotherWay }
    public enum Reply: Equatable, Sendable { case verify(Result<ReauthGrant, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings = [
            KeyBinding([.tab, .down], "Next", inFooter: false, Intent.next),
            KeyBinding([.backTab, .up], "Previous", inFooter: false, .previous),
        ]
        if focus == .anotherWay {
            bindings.insert(KeyBinding([.enter], "Use another way", .anotherWay), at: 0)
        } else if !isLocked(context), !isWorking {
            bindings.insert(KeyBinding([.enter], "Verify", .verify), at: 0)
        }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .next: setFocus(.anotherWay)
        case .previous: setFocus(.field)
        case .verify: return submit(context)
        case .anotherWay: return [.pop]
        }
        return []
    }

    /// Typing the password.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard focus == .field else { return nil }
        guard !isWorking, !isLocked(context) else {
            // Typing while locked or waiting goes nowhere; other keys stay the app's.
            return event.isTextEditing ? [] : nil
        }
        return field.handle(event) ? [] : nil
    }

    private mutating func setFocus(_ newFocus: Focus) {
        focus = newFocus
        field.isFocused = newFocus == .field
    }

    private mutating func submit(_ context: ScreenContext) -> [Command] {
        guard !isWorking, !isLocked(context), !field.value.isEmpty else { return [] }
        let password = field.value
        field.setValue("")
        field.error = nil
        isWorking = true
        return [.call(Endpoint.ReauthPassword(password: password), Reply.verify)]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .verify(.success(let grant)):
            return [.grantReauth(grant), .continueFlow(flow)]
        case .verify(.failure(.rateLimited(nil, let message, _))):
            field.error = message
        case .verify(.failure(.rateLimited(let retryAfter?, _, let kind))):
            lockedUntil = context.now.addingTimeInterval(TimeInterval(retryAfter))
            lockKind = kind
            field.error = Self.lockedText
        case .verify(.failure(.passwordIncorrect(_, _, let retryAfter?))):
            // A 401 with a wait: this very attempt started the lockout, shown now rather than on the next try.
            // It names no limit; on re-auth by password that is the password lock.
            lockedUntil = context.now.addingTimeInterval(TimeInterval(retryAfter))
            lockKind = .passwordAttempts
            field.error = Self.lockedText
        case .verify(.failure(.passwordIncorrect(let remaining, let message, _))) where remaining == 1:
            field.error = "\(message) \(Self.lastTryText)"
        case .verify(.failure(let failure)):
            field.error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        guard let lockedUntil, context.now >= lockedUntil else { return [] }
        self.lockedUntil = nil
        lockKind = nil
        field.error = nil
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Verify it's you")
        canvas.paragraph("Enter your current password")
        var shown = field
        shown.isDisabled = isLocked(context)
        canvas.field(shown)
        if isWorking { canvas.paragraph("Verifying…", style: .muted) }
        canvas.row(ListRow("Forgot it? Use another way", control: .chevron, isSelected: focus == .anotherWay))
    }
}
