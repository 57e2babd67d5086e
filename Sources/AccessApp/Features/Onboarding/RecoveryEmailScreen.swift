import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Onboarding step 3 (seed 003's "Recovery Email Option"): why a recovery email helps, the address and
/// a new password typed twice (Ctrl+R shows both) with the password rules' checklist, Continue; "Skip
/// for now" is there, quieter. The server's refusals show under the fields, which keep what was typed.
public struct RecoveryEmailScreen: ScreenModel {
    public enum Focus: Equatable, Sendable { case email, password, confirm, cta, skip }

    public var email: TextField
    public var password: TextField
    /// The password again, as every new password is typed twice.
    public var confirmation: TextField
    public var focus: Focus
    /// The password was left or submitted once: all its rules are judged from then on.
    public var passwordChecked: Bool
    /// Which request runs: Continue's or Skip's.
    public var working: Focus?
    public var error: String?
    /// The server's 429 for this address: Continue is off until it passes.
    public var limit: RateLimit?

    static let skipKey = Key.control("s")
    static let whyText = "Lose your phone, and a link sent to this address gets you back in."

    /// Why a recovery email helps, for the way this account signs in: an account without a phone (an
    /// Apple or Google sign-up) is not promised its phone back.
    static func why(_ methods: AuthMethods?) -> String {
        guard let methods, methods.phone == nil else { return whyText }
        let provider = methods.appleLinked ? "Apple" : (methods.googleLinked ? "Google" : nil)
        let lost = provider.map { "Can't sign in with \($0)? " } ?? "Can't sign in? "
        return lost + "A link sent to this address gets you back in."
    }
    static let recoveryOnlyText = "For account recovery only."

    public init(
        email: String = "", password: String = "", confirmation: String = "", showsPassword: Bool = false,
        focus: Focus = .email, passwordChecked: Bool = false, working: Focus? = nil, error: String? = nil,
        emailError: String? = nil, passwordError: String? = nil, limit: RateLimit? = nil
    ) {
        self.email = TextField(
            label: "Recovery email", value: email, placeholder: "name@example.com", error: emailError,
            maxLength: EmailRules.maximumLength)
        self.password = TextField(
            label: "Password", value: password, isMasked: !showsPassword, error: passwordError,
            maxLength: PasswordRules.maximumLength)
        self.confirmation = TextField(
            label: "Confirm password", value: confirmation, isMasked: !showsPassword,
            maxLength: PasswordRules.maximumLength)
        self.focus = focus
        self.passwordChecked = passwordChecked
        self.working = working
        self.error = error
        self.limit = limit
    }

    public var id: String { "recovery-email" }
    public var takesText: Bool { true }
    // Typing on the buttons goes to the email field; everything else is the password.
    public var secretEntry: SecretEntry? { [.password, .confirm].contains(focus) ? .password : nil }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.password.isMasked = true
        copy.confirmation.isMasked = true
        return copy
    }
    public var showsPassword: Bool { !password.isMasked }
    public var needsClock: Bool { limit != nil }

    var typed: String { EmailRules.normalized(email.value) }
    var isWorking: Bool { working != nil }
    static let order: [Focus] = [.email, .password, .confirm, .cta, .skip]

    /// The confirmation is typed as far as the password and differs (seed 001's "Passwords don't match.").
    var mismatch: Bool {
        !confirmation.value.isEmpty && confirmation.value.count >= password.value.count
            && confirmation.value != password.value
    }

    func isLimited(_ context: ScreenContext) -> Bool { limit?.applies(to: typed, at: context.now) ?? false }

    public func banner(_ context: ScreenContext) -> Banner? { limit?.banner(for: typed, at: context.now) }

    public func canSubmit(_ context: ScreenContext) -> Bool {
        !isWorking && !isLimited(context) && email.error == nil && EmailRules.isValid(typed)
            && PasswordChecklist.passes(password.value) && confirmation.value == password.value
    }

    public enum Intent: Sendable { case next, previous, submit, skip, toggleShown }
    public enum Reply: Equatable, Sendable {
        case save(Result<Profile, APIError>)
        case skip(Result<Profile, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings = [
            .nextField(next: .next, previous: .previous),
            KeyBinding([.enter], focus == .skip ? "Skip for now" : "Continue", Intent.submit),
        ]
        // "Skip for now (Ctrl+S)" is on screen; the footer keeps room for Ctrl+R while a password is typed.
        let skipInFooter = ![.skip, .password, .confirm].contains(focus)
        if !isWorking { bindings.append(KeyBinding([Self.skipKey], "Skip for now", inFooter: skipInFooter, .skip)) }
        // In the footer where a password is typed; the key works on the whole form.
        bindings.append(
            KeyBinding(
                [.control("r")], showsPassword ? "Hide password" : "Show password",
                inFooter: [.password, .confirm].contains(focus), .toggleShown))
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .next, .previous:
            if focus == .password { passwordChecked = true }
            focus = FocusOrder.step(Self.order, from: focus, forward: intent == .next) {
                $0 != .cta || canSubmit(context)
            }
            return []
        case .skip:
            return skip()
        case .toggleShown:
            password.isMasked.toggle()
            confirmation.isMasked = password.isMasked
            return []
        case .submit:
            guard !isWorking else { return [] }
            switch focus {
            case .skip: return skip()
            case .email:
                focus = .password
                return []
            case .password:
                passwordChecked = true
                focus = .confirm
                return []
            case .confirm, .cta:
                passwordChecked = true
                if !EmailRules.isValid(typed) {
                    email.error = NewEmailScreen.invalidText
                    focus = .email
                    return []
                }
                return canSubmit(context) ? submit() : []
            }
        }
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return [] }
        if [.cta, .skip].contains(focus) { focus = .email }
        if focus == .password {
            let before = password.value
            guard password.handle(event) else { return nil }
            if password.value != before { password.error = nil }
            return []
        }
        if focus == .confirm { return confirmation.handle(event) ? [] : nil }
        let before = email.value
        guard email.handle(event) else { return nil }
        if email.value != before {
            email.error = nil
            error = nil
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let limit, context.now >= limit.until { self.limit = nil }
        return []
    }

    private mutating func submit() -> [Command] {
        working = .cta
        error = nil
        return [.call(Endpoint.SetRecoveryEmail(email: typed, password: password.value), Reply.save)]
    }

    private mutating func skip() -> [Command] {
        working = .skip
        error = nil
        return [.call(Endpoint.ContinueOnboarding(from: .recoveryEmail), Reply.skip)]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        working = nil
        switch reply {
        case .save(.success(let profile)):
            return Onboarding.advance(to: profile, linkSentAt: context.now)
        case .skip(.success(let profile)):
            return Onboarding.advance(to: profile)
        case .skip(.failure(let failure)):
            error = failure.message
        case .save(.failure(.taken)):
            email.error = NewEmailScreen.takenText
            focus = .email
        case .save(.failure(.invalid(let codes, let message, _))):
            if let passwordProblem = PasswordChecklist.message(for: codes) {
                password.error = passwordProblem
                focus = .password
            } else {
                email.error = message
                focus = .email
            }
        case .save(.failure(.rateLimited(let retryAfter?, let message, let kind))):
            // The banner counts down; the message would say it twice.
            limit = RateLimit(
                target: typed, until: context.now.addingTimeInterval(TimeInterval(retryAfter)), kind: kind,
                message: message)
        case .save(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        OnboardingProgress(.recoveryEmail, context).title(
            "Add a recovery email", note: Self.recoveryOnlyText, into: &canvas)
        canvas.paragraph(Self.why(context.methods))
        var shownEmail = email
        shownEmail.isFocused = focus == .email
        shownEmail.isDisabled = isWorking
        canvas.field(shownEmail, spacing: 0)
        var shownPassword = password
        shownPassword.isFocused = focus == .password
        shownPassword.isDisabled = isWorking
        canvas.field(shownPassword, spacing: 0)
        // The rules under the password they judge, so they stay in view while it is typed again below.
        let checklist = PasswordChecklist(password: password.value, checkedAll: passwordChecked)
        for line in checklist.lines(glyphs: canvas.glyphs) {
            canvas.paragraph(line.text, style: line.style, spacing: 0)
        }
        canvas.skip(1)
        var shownConfirmation = confirmation
        shownConfirmation.isFocused = focus == .confirm
        shownConfirmation.isDisabled = isWorking
        shownConfirmation.error = mismatch ? SetPasswordScreen.mismatchText : nil
        canvas.field(shownConfirmation, spacing: 0)
        // The row under the checklist: the refusal, else a blank before the buttons.
        if let error { canvas.paragraph(error, style: .danger, spacing: 0) } else { canvas.skip(1) }
        canvas.button(
            "Continue", working: "Saving…", isReady: canSubmit(context), isFocused: focus == .cta,
            isWorking: working == .cta, spacing: 0)
        // Under Continue and quieter (seed 003: "Skip for now" option, less prominent).
        if working == .skip {
            canvas.centered("Skipping…", style: .muted)
        } else {
            let skip = "Skip for now (Ctrl+S)"
            canvas.centered(
                focus == .skip ? "\(canvas.glyphs.selected) \(skip)" : skip,
                style: focus == .skip ? Style.plain.with(.reverse) : .muted)
        }
    }
}
