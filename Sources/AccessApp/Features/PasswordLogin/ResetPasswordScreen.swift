import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Set a new password" from a checked reset link: the new password typed twice (Ctrl+R shows both) with
/// the password rules' checklist, judged against the link's address as the server judges it. Success signs
/// every session out, this device has none from the link, so the person logs in with the new password
/// (docs/qa-guide.md says why). A weak password is the server's 422 with its rule; a link that died
/// meanwhile is "This link has expired" or "A newer link was sent".
public struct ResetPasswordScreen: ScreenModel {
    public enum Focus: Equatable, Sendable { case new, confirm, cta }

    /// The address the link went to: the password must not resemble it.
    public var email: String
    /// The link's token, spent by Update password; masked in every dump of the state.
    public var token: Secret
    public var newPassword: TextField
    public var confirmation: TextField
    public var focus: Focus
    /// The new password was left or submitted once: all its rules are judged from then on.
    public var checked: Bool
    public var isWorking: Bool
    public var error: String?

    public init(
        email: String, token: Secret, newPassword: String = "", confirmation: String = "",
        showsPassword: Bool = false, focus: Focus = .new, checked: Bool = false, isWorking: Bool = false,
        error: String? = nil, newPasswordError: String? = nil
    ) {
        self.email = email
        self.token = token
        self.newPassword = TextField(
            label: "New password", value: newPassword, isMasked: !showsPassword, error: newPasswordError,
            maxLength: PasswordRules.maximumLength)
        self.confirmation = TextField(
            label: "Confirm new password", value: confirmation, isMasked: !showsPassword,
            maxLength: PasswordRules.maximumLength)
        self.focus = focus
        self.checked = checked
        self.isWorking = isWorking
        self.error = error
    }

    /// Said on Log in, where the person lands.
    static let doneText = "Password changed and every session signed out. Log in with your new password."

    public var id: String { "reset-password" }
    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { .password }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.newPassword.isMasked = true
        copy.confirmation.isMasked = true
        return copy
    }
    public var showsPassword: Bool { !newPassword.isMasked }

    /// The confirmation is typed as far as the password and differs (seed 001's "Passwords don't match.").
    var mismatch: Bool {
        !confirmation.value.isEmpty && confirmation.value.count >= newPassword.value.count
            && confirmation.value != newPassword.value
    }

    public func canSubmit(_ context: ScreenContext) -> Bool {
        !isWorking && PasswordChecklist.passes(newPassword.value)
            && confirmation.value == newPassword.value
    }

    public enum Intent: Sendable { case next, previous, submit, toggleShown }
    public enum Reply: Equatable, Sendable { case complete(Result<PasswordResetDone, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            .nextField(next: .next, previous: .previous),
            KeyBinding([.enter], focus == .new ? "Next" : "Update password", .submit),
            KeyBinding([.control("r")], showsPassword ? "Hide password" : "Show password", .toggleShown),
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
        case .toggleShown:
            newPassword.isMasked.toggle()
            confirmation.isMasked = newPassword.isMasked
            return []
        case .submit:
            checked = true
            if focus == .new {
                focus = .confirm
                return []
            }
            guard canSubmit(context) else { return [] }
            isWorking = true
            error = nil
            return [
                .call(
                    CompletePasswordReset(token: token, newPassword: Secret(newPassword.value)), Reply.complete)
            ]
        }
    }

    /// Typing into the focused field; on the button, into the confirmation.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        if focus == .cta, event.isTextEditing { focus = .confirm }
        if focus == .new {
            let before = newPassword.value
            guard newPassword.handle(event) else { return nil }
            if newPassword.value != before { newPassword.error = nil }
            return []
        }
        guard confirmation.handle(event) else { return nil }
        return []
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .complete(.success(let done)):
            newPassword.setValue("")
            confirmation.setValue("")
            return [
                .resetStack(SignInScreen.selecting(.password, context)),
                .push(PasswordLoginScreen(email: done.email, focus: .password, notice: Self.doneText)),
            ]
        case .complete(.failure(.invalid(let codes, let message, _))):
            newPassword.error = PasswordChecklist.message(for: codes) ?? message
            focus = .new
        case .complete(.failure(.codeExpired)):
            return [.replaceTop(LinkExpiredScreen(link: AnyLinkPurpose(ForgotPasswordLink(email: email))))]
        case .complete(.failure(.server(410, ErrorCode.linkSuperseded.rawValue, _))):
            return [
                .replaceTop(
                    LinkExpiredScreen(link: AnyLinkPurpose(ForgotPasswordLink(email: email)), isReplaced: true))
            ]
        case .complete(.failure(.offline)):
            error = ForgotPasswordScreen.offlineText
        case .complete(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Set a new password", subtitle: "For \(email).")
        canvas.paragraph("Choose something you'll remember. You'll use it to sign in.")
        var shownNew = newPassword
        shownNew.isFocused = focus == .new && !isWorking
        shownNew.isDisabled = isWorking
        canvas.field(shownNew)
        var shownConfirmation = confirmation
        shownConfirmation.isFocused = focus == .confirm && !isWorking
        shownConfirmation.isDisabled = isWorking
        shownConfirmation.error = mismatch ? SetPasswordScreen.mismatchText : nil
        canvas.field(shownConfirmation)
        canvas.paragraph("Ctrl+R \(showsPassword ? "hides" : "shows") the password", style: .muted, spacing: 0)
        PasswordChecklist(password: newPassword.value, checkedAll: checked).draw(into: &canvas)
        if let error { canvas.paragraph(error, style: .danger) }
        canvas.button(
            "Update password", working: "Updating…", isReady: canSubmit(context), isFocused: focus == .cta,
            isWorking: isWorking)
        canvas.paragraph("Every session of the account is signed out, on every device.", style: .muted)
    }
}
