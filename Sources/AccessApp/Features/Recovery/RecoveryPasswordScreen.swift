import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// A checked recovery link: the recovery email's password (masked, Ctrl+R shows it) finishes the
/// recovery and signs in with limited access. A wrong password keeps the link usable; repeated
/// ones wait, counted down from the clock; a link that died meanwhile is "This link has expired".
public struct RecoveryPasswordScreen: ScreenModel {
    public var email: String
    /// The link's token, spent by Continue; masked in every dump of the state.
    public var token: Secret
    public var password: TextField
    public var isWorking: Bool
    public var error: String?
    /// The lockout's end (429 with a wait): Continue stays off and counts down until then.
    public var lockedUntil: Date?
    /// Which limit the lockout is, as the answer named it: its words on the countdown (issue 46 item 5).
    public var lockKind: RateLimitKind?

    public init(
        email: String, token: Secret, password: String = "", showsPassword: Bool = false, isWorking: Bool = false,
        error: String? = nil, lockedUntil: Date? = nil, lockKind: RateLimitKind? = nil
    ) {
        self.email = email
        self.token = token
        self.password = TextField(
            label: "Password", value: password, isMasked: !showsPassword, maxLength: PasswordRules.maximumLength)
        self.isWorking = isWorking
        self.error = error
        self.lockedUntil = lockedUntil
        self.lockKind = lockKind
    }

    /// The address is known here, so only the password can be wrong (seed 002's "Invalid email or
    /// password", narrowed).
    public static let wrongPasswordText = "That password isn't right. Try again."

    public var id: String { "recovery-password" }
    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { .password }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.password.isMasked = true
        return copy
    }
    public var needsClock: Bool { lockedUntil != nil }
    public var showsPassword: Bool { !password.isMasked }

    func isLocked(_ context: ScreenContext) -> Bool { RateLimit.lasting(lockedUntil, at: context.now) != nil }

    func canSubmit(_ context: ScreenContext) -> Bool { !isWorking && !isLocked(context) && !password.value.isEmpty }

    public enum Intent: Sendable { case submit, toggleShown, forgotPassword }
    public enum Reply: Equatable, Sendable { case complete(Result<SignedIn, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            KeyBinding([.enter], "Continue", .submit),
            KeyBinding([.control("r")], showsPassword ? "Hide password" : "Show password", .toggleShown),
            // Said on screen; the footer keeps its room for the form's keys.
            KeyBinding([PasswordLoginScreen.forgotKey], "Forgot password?", inFooter: false, .forgotPassword),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .toggleShown:
            password.isMasked.toggle()
            return []
        case .forgotPassword:
            return [.push(ForgotPasswordScreen(email: email))]
        case .submit:
            guard canSubmit(context) else { return [] }
            isWorking = true
            error = nil
            return [.call(CompleteRecovery(token: token, password: Secret(password.value)), Reply.complete)]
        }
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return [] }
        let before = password.value
        guard password.handle(event) else { return nil }
        if password.value != before { error = nil }
        return []
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .complete(.success(let signedIn)):
            password.setValue("")
            return [.signedIn(signedIn)]
        case .complete(.failure(.passwordIncorrect(_, _, let retryAfter?))):
            // This try started the lockout the failures share with the login's (the contract's 401 with a wait).
            error = nil
            password.setValue("")
            lockedUntil = context.now + TimeInterval(retryAfter)
            lockKind = .loginLockout
        case .complete(.failure(.passwordIncorrect)):
            error = Self.wrongPasswordText
            password.setValue("")
        case .complete(.failure(.rateLimited(let retryAfter?, _, let kind))):
            error = nil
            password.setValue("")
            lockedUntil = context.now + TimeInterval(retryAfter)
            lockKind = kind
        case .complete(.failure(.rateLimited(nil, let message, _))):
            error = message
        case .complete(.failure(.codeExpired)), .complete(.failure(.server(404, _, _))):
            password.setValue("")
            return [.replaceTop(LinkExpiredScreen(link: AnyLinkPurpose(AccountRecoveryLink())))]
        case .complete(.failure(.offline)):
            error = RecoveryRequestScreen.offlineText
        case .complete(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        lockedUntil = RateLimit.lasting(lockedUntil, at: context.now)
        if lockedUntil == nil { lockKind = nil }
        return []
    }

    public func banner(_ context: ScreenContext) -> Banner? {
        RateLimit.banner(until: lockedUntil, kind: lockKind, at: context.now)
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Enter your password", subtitle: "Enter the password for \(email).")
        var field = password
        field.isFocused = !isWorking
        field.isDisabled = isWorking
        field.error = error
        canvas.field(field)
        canvas.paragraph("Ctrl+R \(showsPassword ? "hides" : "shows") the password", style: .muted, spacing: 0)
        if !canvas.lockoutCountdown(until: lockedUntil, kind: lockKind, at: context.now) {
            canvas.button(
                "Continue", working: "Signing in…", isReady: canSubmit(context), isFocused: false,
                isWorking: isWorking)
        }
        canvas.paragraph(
            "You'll get back in with limited access until you verify your phone number.", style: .muted)
        canvas.paragraph("Forgot password? Ctrl+F", style: .muted)
    }
}
