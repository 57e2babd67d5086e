import AccessAPI
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

    public init(
        flow: AnyFlow, password: String = "", focus: Focus = .field, isWorking: Bool = false,
        error: String? = nil, lockedUntil: Date? = nil
    ) {
        self.flow = flow
        field = TextField(
            label: "Current password", value: password, isMasked: true, error: error, isFocused: focus == .field,
            maxLength: Self.maxLength)
        self.focus = focus
        self.isWorking = isWorking
        self.lockedUntil = lockedUntil
    }

    public var id: String { "password-reauth" }

    /// Passwords are at most 128 characters (the backend's rule too): a runaway paste stops there.
    static let maxLength = 128

    /// The lock's one wording, live and in the gallery (seed 000 has none; the banner counts down).
    static let lockedText = "Too many wrong passwords. Try again later or verify another way."
    static let lastTryText = "One try left, then password sign-in locks for 15 minutes."
    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { .password }
    public var needsClock: Bool { lockedUntil != nil }

    public func banner(_ context: ScreenContext) -> Banner? {
        lockedUntil.flatMap { RateLimit(until: $0).banner(at: context.now) }
    }

    public var error: String? { field.error }

    func isLocked(_ context: ScreenContext) -> Bool {
        lockedUntil.map { context.now < $0 } ?? false
    }

    public func keymap(_ context: ScreenContext) -> Keymap {
        var bindings = [
            KeyHint([.tab, .down], "Next", inFooter: false),
            KeyHint([.backTab, .up], "Previous", inFooter: false),
        ]
        if focus == .anotherWay {
            bindings.insert(KeyHint([.enter], "Use another way"), at: 0)
        } else if !isLocked(context), !isWorking {
            bindings.insert(KeyHint([.enter], "Verify"), at: 0)
        }
        return Keymap(bindings)
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        if case .key(let key) = event {
            switch key {
            case .tab, .down, .backTab, .up:
                setFocus([.tab, .down].contains(key) ? .anotherWay : .field)
                return []
            case .enter:
                if focus == .anotherWay { return [.pop] }
                return isWorking || isLocked(context) ? nil : submit(context)
            default:
                break
            }
        }
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
        return [.request(ReauthByPassword(password: Secret(password)))]
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    )
        -> [Command]
    {
        isWorking = false
        switch result {
        case .success(let reply):
            guard let grant = reply.as(ReauthGrant.self) else { return [] }
            return [.grantReauth(grant), .continueFlow(flow)]
        case .failure(.rateLimited(nil, let message)):
            field.error = message
            return []
        case .failure(.rateLimited(let retryAfter?, _)):
            let until = context.now.addingTimeInterval(TimeInterval(retryAfter))
            lockedUntil = until
            field.error = Self.lockedText
            return []
        case .failure(.passwordIncorrect(let remaining, let message)) where remaining == 1:
            field.error = "\(message) \(Self.lastTryText)"
            return []
        case .failure(let failure):
            field.error = failure.message
            return []
        }
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        guard let lockedUntil, context.now >= lockedUntil else { return [] }
        self.lockedUntil = nil
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
