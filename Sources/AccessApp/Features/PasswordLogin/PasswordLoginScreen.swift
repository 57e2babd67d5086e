import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Seed 002's Log in | Register on one screen: an email and a password (masked, Ctrl+R shows it).
/// Checked here before any call ("Please enter a valid email address"; registering, seed 000's
/// password rules). A failed login says "Invalid email or password", clears the password and keeps
/// the email; repeated failures wait, counted down from the clock; no network is never "invalid".
public struct PasswordLoginScreen: ScreenModel {
    public enum Mode: String, Equatable, Sendable { case login, register }
    public enum Focus: Equatable, Sendable { case email, password, cta }

    public var mode: Mode
    public var email: TextField
    public var password: TextField
    public var focus: Focus
    public var isWorking: Bool
    public var error: String?
    /// Said above the form: why the person is here ("Email verified. Log in.").
    public var notice: String?
    /// The lockout's end (429 with a wait): the button stays off and counts down until then.
    public var lockedUntil: Date?
    /// Which limit the lockout is, as the answer named it: its words on the countdown (issue 46 item 5).
    public var lockKind: RateLimitKind?

    public init(
        mode: Mode = .login, email: String = "", password: String = "", focus: Focus = .email,
        showsPassword: Bool = false, isWorking: Bool = false, error: String? = nil, notice: String? = nil,
        lockedUntil: Date? = nil, lockKind: RateLimitKind? = nil
    ) {
        self.mode = mode
        self.email = TextField(
            label: "Email", value: email, placeholder: "name@example.com", maxLength: EmailRules.maximumLength)
        self.password = TextField(
            label: "Password", value: password, isMasked: !showsPassword, maxLength: PasswordRules.maximumLength)
        self.focus = focus
        self.isWorking = isWorking
        self.error = error
        self.notice = notice
        self.lockedUntil = lockedUntil
        self.lockKind = lockKind
    }

    public static let invalidEmailText = OnScreenMessage.invalidEmail.text
    public static let invalidCredentialsText = OnScreenMessage.invalidCredentials.text
    public static let emailExistsText = "An account with this email already exists"
    public static let offlineText = OnScreenMessage.offline.text
    static func verifiedText(_ email: String) -> String { "\(email) is verified. Log in to continue." }
    /// The same link opened while signed in: there is nothing to log in to (issue 28 item 6).
    static func verifiedSignedInText(_ email: String) -> String { "\(email) is verified." }

    public var id: String { "password-login" }
    public var takesText: Bool { true }
    // Typing on the button goes to the password.
    public var secretEntry: SecretEntry? { focus == .email ? nil : .password }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.password.isMasked = true
        return copy
    }
    public var needsClock: Bool { lockedUntil != nil }
    public var showsPassword: Bool { !password.isMasked }

    var typedEmail: String { EmailRules.normalized(email.value) }

    func isLocked(_ context: ScreenContext) -> Bool { RateLimit.lasting(lockedUntil, at: context.now) != nil }

    func canSubmit(_ context: ScreenContext) -> Bool {
        !isWorking && !isLocked(context) && !typedEmail.isEmpty && !password.value.isEmpty
    }

    var actionTitle: String { mode == .login ? "Log in" : "Register" }

    public enum Intent: Sendable {
        case nextField, previousField, submit, switchMode, togglePassword, forgotPassword
    }
    public enum Reply: Equatable, Sendable {
        case login(Result<SignedIn, APIError>)
        case register(Result<Registered, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = [
            .nextField(next: .nextField, previous: .previousField),
            KeyBinding([.enter], actionTitle, .submit),
            KeyBinding([.control("t")], mode == .login ? "Register instead" : "Log in instead", .switchMode),
            KeyBinding([.control("r")], showsPassword ? "Hide password" : "Show password", .togglePassword),
        ]
        // Said on screen under the button; the footer keeps its room for the form's keys.
        if mode == .login {
            bindings.append(KeyBinding([Self.forgotKey], "Forgot password?", inFooter: false, .forgotPassword))
        }
        return bindings
    }

    /// "Forgot password?" (issue 28 item 25): also on recovery's password screen.
    static let forgotKey = Key.control("f")

    static let order: [Focus] = [.email, .password, .cta]

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .nextField, .previousField:
            focus = FocusOrder.step(Self.order, from: focus, forward: intent == .nextField) {
                $0 != .cta || canSubmit(context)
            }
        case .switchMode:
            guard !isWorking else { return [] }
            mode = mode == .login ? .register : .login
            error = nil
        case .togglePassword:
            password.isMasked.toggle()
        case .forgotPassword:
            guard !isWorking else { return [] }
            return [.push(ForgotPasswordScreen(email: typedEmail))]
        case .submit:
            if focus == .email {
                focus = .password
                return []
            }
            return submit(context)
        }
        return []
    }

    /// Typing into the focused field; on the button, into the password.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        if focus == .cta, event.isTextEditing { focus = .password }
        let edited = focus == .email ? email.value : password.value
        let handled = focus == .email ? email.handle(event) : password.handle(event)
        guard handled else { return nil }
        if (focus == .email ? email.value : password.value) != edited { error = nil }
        return []
    }

    private mutating func submit(_ context: ScreenContext) -> [Command] {
        guard canSubmit(context) else { return [] }
        guard EmailRules.isValid(typedEmail) else {
            error = Self.invalidEmailText
            focus = .email
            return []
        }
        if mode == .register, let broken = PasswordChecklist.firstBroken(password.value) {
            error = broken.message
            focus = .password
            return []
        }
        isWorking = true
        error = nil
        notice = nil
        let secret = Secret(password.value)
        switch mode {
        case .login: return [.call(PasswordLogin(email: typedEmail, password: secret), Reply.login)]
        case .register: return [.call(Endpoint.Register(email: typedEmail, password: password.value), Reply.register)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .login(.success(let signedIn)):
            return [.signedIn(signedIn)]
        case .register(.success(let registered)):
            password.setValue("")
            // Registering sent the link: the next one waits the server's 30 s.
            return [
                .push(
                    VerifyAccountScreen(
                        email: registered.email, justRegistered: true,
                        resendAfter: context.now + RateLimit.sendCooldown))
            ]
        case .login(.failure(let failure)), .register(.failure(let failure)):
            return refused(failure, context)
        }
    }

    /// A login or a registration refused: what the form says, and what it keeps.
    private mutating func refused(_ failure: APIError, _ context: ScreenContext) -> [Command] {
        switch failure {
        case .passwordIncorrect(_, _, let retryAfter?):
            // This very attempt started the lockout: it shows now, not on the next try. A 401 names no limit;
            // the contract's 401 with a wait on a login is its progressive lockout.
            error = nil
            password.setValue("")
            lockedUntil = context.now + TimeInterval(retryAfter)
            lockKind = .loginLockout
        case .passwordIncorrect:
            error = Self.invalidCredentialsText
            password.setValue("")
            focus = .password
        case .server(403, ErrorCode.emailUnverified.rawValue, _):
            password.setValue("")
            return [.push(VerifyAccountScreen(email: typedEmail, justRegistered: false))]
        case .taken:
            error = Self.emailExistsText
        case .invalid(let fields, let message, _):
            error = fields.first.flatMap(PasswordRule.init(rawValue:))?.message ?? message
        case .rateLimited(let retryAfter?, _, let kind):
            error = nil
            password.setValue("")
            lockedUntil = context.now + TimeInterval(retryAfter)
            lockKind = kind
        case .rateLimited(nil, let message, _):
            error = message
        case .offline:
            error = Self.offlineText
        default:
            error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        lockedUntil = RateLimit.lasting(lockedUntil, at: context.now)
        if lockedUntil == nil { lockKind = nil }
        return []
    }

    /// "Back to login" from the verification screen: the Log in tab with that address, the password next.
    public struct BackToLogin: Equatable, Sendable {
        public var email: String
    }

    public mutating func receiveChoice(_ back: BackToLogin, _ context: ScreenContext) -> [Command] {
        mode = .login
        email.setValue(back.email)
        password.setValue("")
        error = nil
        focus = .password
        return []
    }

    public func banner(_ context: ScreenContext) -> Banner? {
        RateLimit.banner(until: lockedUntil, kind: lockKind, at: context.now)
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let tabs = mode == .login ? "[ Log in ]   Register" : "  Log in   [ Register ]"
        canvas.title(
            mode == .login ? "Log in" : "Register",
            subtitle: "\(tabs)   · Ctrl+T switches")
        if let notice { canvas.paragraph(notice, style: .muted) }
        // The email's own problem shows under it; everything else under the password, by the button.
        let emailError = error == Self.invalidEmailText
        var emailField = email
        emailField.isFocused = focus == .email && !isWorking
        emailField.isDisabled = isWorking
        emailField.error = emailError ? error : nil
        canvas.field(emailField)
        var passwordField = password
        passwordField.isFocused = focus == .password && !isWorking
        passwordField.isDisabled = isWorking
        passwordField.error = emailError ? nil : error
        canvas.field(passwordField)
        canvas.paragraph(
            "Ctrl+R \(showsPassword ? "hides" : "shows") the password"
                + (mode == .register ? " · at least \(PasswordRules.minimumLength) characters, not a common one" : ""),
            style: .muted, spacing: 0)
        let working = mode == .login ? "Logging in…" : "Registering…"
        if !canvas.lockoutCountdown(until: lockedUntil, kind: lockKind, at: context.now) {
            canvas.button(
                actionTitle, working: working, isReady: canSubmit(context), isFocused: focus == .cta,
                isWorking: isWorking)
        }
        if mode == .login { canvas.paragraph("Forgot password? Ctrl+F", style: .muted) }
    }
}
