import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Set a new password" (seed 001), the last step of Change password, after "Verify it's you".
/// "Passwords don't match." shows once the confirmation is as long as the new one and differs,
/// 200 ms after typing pauses (on the app clock); the server's refusals show under the fields,
/// which keep what was typed.
public struct SetPasswordScreen: ScreenModel {
    public enum Focus: Equatable, Sendable { case new, confirm, cta }

    public var newPassword: TextField
    public var confirmation: TextField
    public var focus: Focus
    /// The new password was left or submitted once: all three rules are judged from then on.
    public var checked: Bool
    /// The confirmation changed then; the mismatch is judged `mismatchDebounce` later.
    public var confirmEditedAt: Date?
    public var mismatch: Bool
    public var isWorking: Bool
    public var error: String?

    public static let mismatchDebounce: TimeInterval = 0.2
    static let mismatchText = "Passwords don't match."
    static let unchangedText = "Pick something different from your current password."
    static let updatedText = "Password updated. You're signed out on other devices."

    public init(
        newPassword: String = "", confirmation: String = "", focus: Focus = .new, checked: Bool = false,
        confirmEditedAt: Date? = nil, mismatch: Bool = false, isWorking: Bool = false, error: String? = nil,
        newPasswordError: String? = nil
    ) {
        self.newPassword = TextField(
            label: "New password", value: newPassword, isMasked: true, error: newPasswordError,
            maxLength: PasswordRules.maximumLength)
        self.confirmation = TextField(
            label: "Confirm new password", value: confirmation, isMasked: true,
            maxLength: PasswordRules.maximumLength)
        self.focus = focus
        self.checked = checked
        self.confirmEditedAt = confirmEditedAt
        self.mismatch = mismatch
        self.isWorking = isWorking
        self.error = error
    }

    public var id: String { "set-password" }
    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { .password }

    public func canSubmit(_ context: ScreenContext) -> Bool {
        !isWorking && PasswordChecklist.passes(newPassword.value)
            && confirmation.value == newPassword.value
    }

    public enum Intent: Sendable { case next, previous, submit }
    public enum Reply: Equatable, Sendable { case change(Result<PasswordChanged, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            .nextField(next: .next, previous: .previous),
            KeyBinding([.enter], "Update password", .submit),
        ]
    }

    static let order: [Focus] = [.new, .confirm, .cta]

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .next, .previous:
            if focus == .new { checked = true }
            focus = FocusOrder.step(Self.order, from: focus, forward: intent == .next) {
                $0 != .cta || canSubmit(context)
            }
            return []
        case .submit:
            if focus == .new {
                checked = true
                focus = .confirm
                return []
            }
            return submit(context)
        }
    }

    /// Typing into the focused field.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        if focus == .cta, event.isTextEditing { focus = .confirm }
        if focus == .new {
            let before = newPassword.value
            guard newPassword.handle(event) else { return nil }
            guard newPassword.value != before else { return [] }
            newPassword.error = nil
            return confirmation.value.isEmpty ? [] : confirmationEdited(context)
        }
        let before = confirmation.value
        guard confirmation.handle(event) else { return nil }
        guard confirmation.value != before else { return [] }
        mismatch = false
        return confirmationEdited(context)
    }

    private mutating func confirmationEdited(_ context: ScreenContext) -> [Command] {
        confirmEditedAt = context.now
        return [.run(.after(seconds: Self.mismatchDebounce, action: .tick, id: .debounce))]
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        guard let edited = confirmEditedAt, context.now >= edited + Self.mismatchDebounce else { return [] }
        confirmEditedAt = nil
        mismatch =
            confirmation.value.count == newPassword.value.count && confirmation.value != newPassword.value
        return []
    }

    private mutating func submit(_ context: ScreenContext) -> [Command] {
        checked = true
        if confirmation.value != newPassword.value, !confirmation.value.isEmpty { mismatch = true }
        guard canSubmit(context) else { return [] }
        isWorking = true
        error = nil
        return [
            .call(
                Endpoint.ChangePassword(newPassword: newPassword.value, reauthToken: context.reauth?.reauthToken),
                Reply.change)
        ]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .change(.success(let changed)):
            var commands: [Command] = [.popTo(EmailPasswordScreen.self), .showToast(Self.updatedText)]
            if var methods = context.methods {
                methods.hasPassword = true
                methods.passwordChangedAt = changed.passwordChangedAt
                commands.insert(.setMethods(methods), at: 0)
            }
            return commands
        case .change(.failure(.invalid(let codes, let message, _))):
            newPassword.error = PasswordChecklist.message(for: codes) ?? message
        case .change(.failure(.reauthRequired)):
            error = NewEmailScreen.expiredReauthText
        case .change(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Set a new password")
        canvas.paragraph("Choose something you'll remember. You'll use it to sign in.")
        var shownNew = newPassword
        shownNew.isFocused = focus == .new
        shownNew.isDisabled = isWorking
        canvas.field(shownNew)
        var shownConfirmation = confirmation
        shownConfirmation.isFocused = focus == .confirm
        shownConfirmation.isDisabled = isWorking
        shownConfirmation.error = mismatch ? Self.mismatchText : nil
        canvas.field(shownConfirmation)
        PasswordChecklist(password: newPassword.value, checkedAll: checked).draw(into: &canvas)
        if let error { canvas.paragraph(error, style: .danger) }
        canvas.button(
            "Update password", working: "Updating…", isReady: canSubmit(context), isFocused: focus == .cta,
            isWorking: isWorking)
    }
}
