import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "New email" (change: one field, "Current: …") and "Add email & password" (two fields, the
/// password's checklist), seed 001. Availability is asked 400 ms after typing pauses, on the app
/// clock; the button stays off until the address is available (and, adding, the password passes).
public struct NewEmailScreen: ScreenModel {
    public enum Mode: Equatable, Sendable {
        case change(current: String)
        case add
    }

    public enum Focus: Equatable, Sendable { case email, password, cta }

    /// Where the address stands; each case with an address is about that exact address.
    public enum Availability: Equatable, Sendable {
        case idle
        case typing(since: Date)
        case checking(String)
        case available(String)
        case taken(String)
        case invalid
        case unchanged
    }

    public var mode: Mode
    public var email: TextField
    public var password: TextField
    public var focus: Focus
    public var availability: Availability
    /// The password was left or submitted once: all three rules are judged from then on.
    public var passwordChecked: Bool
    public var isWorking: Bool
    public var error: String?
    /// The server's 429 for this address: sending is off until it passes.
    public var limit: RateLimit?

    public static let debounce: TimeInterval = 0.4
    static let takenText = "This email is already in use by another account."
    static let invalidText = OnScreenMessage.invalidEmail.text
    static let unchangedText = "That's already your email address."
    static let expiredReauthText = "Your verification has expired. Go back and verify it's you again."

    public init(
        mode: Mode, email: String = "", password: String = "", focus: Focus = .email,
        availability: Availability = .idle, passwordChecked: Bool = false, isWorking: Bool = false,
        error: String? = nil, limit: RateLimit? = nil
    ) {
        self.mode = mode
        self.email = TextField(
            label: "New email", value: email, placeholder: "name@example.com", maxLength: EmailRules.maximumLength)
        self.password = TextField(
            label: "Password", value: password, isMasked: true, maxLength: PasswordRules.maximumLength)
        self.focus = focus
        self.availability = availability
        self.passwordChecked = passwordChecked
        self.isWorking = isWorking
        self.error = error
        self.limit = limit
    }

    public var id: String { "new-email" }
    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { focus == .password ? .password : nil }

    /// The pause before the availability check has its own timer (`TimerID.debounce`).
    public var needsClock: Bool { limit != nil }

    var isAdding: Bool { mode == .add }
    var typed: String { EmailRules.normalized(email.value) }
    var focusOrder: [Focus] { isAdding ? [.email, .password, .cta] : [.email, .cta] }

    func isLimited(_ context: ScreenContext) -> Bool { limit?.applies(to: typed, at: context.now) ?? false }

    public func banner(_ context: ScreenContext) -> Banner? { limit?.banner(for: typed, at: context.now) }

    public func canSubmit(_ context: ScreenContext) -> Bool {
        guard availability == .available(typed), !isWorking, !isLimited(context) else { return false }
        return !isAdding || PasswordChecklist.passes(password.value)
    }

    public enum Intent: Sendable { case next, previous, submit }
    public enum Reply: Equatable, Sendable {
        case availability(Result<EmailAvailability, APIError>)
        /// The link sent to the new address, for a change or an add alike.
        case send(Result<EmailLinkSent, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            .nextField(next: .next, previous: .previous),
            KeyBinding([.enter], "Send link", .submit),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .next: move(forward: true, context)
        case .previous: move(forward: false, context)
        case .submit:
            if canSubmit(context) { return submit(context) }
            if focus == .email, isAdding {
                move(forward: true, context)
            } else if focus == .password {
                passwordChecked = true
            }
        }
        return []
    }

    /// Typing into the focused field; a new address is judged once typing pauses.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        if focus == .cta, event.isTextEditing { focus = .email }
        if focus == .password {
            let before = password.value
            guard password.handle(event) else { return nil }
            // The server's verdict was about the password it was sent.
            if password.value != before { password.error = nil }
            return []
        }
        let before = email.value
        guard email.handle(event) else { return nil }
        guard email.value != before else { return [] }
        error = nil
        guard !email.value.isEmpty else {
            availability = .idle
            return []
        }
        availability = .typing(since: context.now)
        return [.run(.after(seconds: Self.debounce, action: .tick, id: .debounce))]
    }

    /// Back from "Check your email" to edit the address: the focus on it, and nothing judged for the old
    /// one stays (a password "too similar" to the old address says nothing about the next).
    public mutating func receiveChoice(_ choice: EditAddress, _ context: ScreenContext) -> [Command] {
        focus = .email
        error = nil
        password.error = nil
        return []
    }

    private mutating func move(forward: Bool, _ context: ScreenContext) {
        if focus == .password { passwordChecked = true }
        focus = FocusOrder.step(focusOrder, from: focus, forward: forward) { $0 != .cta || canSubmit(context) }
    }

    /// The pause is over: judge the address locally, then ask the server about one that passes.
    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let limit, context.now >= limit.until { self.limit = nil }
        guard case .typing(let since) = availability, context.now >= since + Self.debounce else { return [] }
        let address = typed
        if !EmailRules.isValid(address) {
            availability = .invalid
        } else if case .change(let current) = mode, EmailRules.same(address, current) {
            availability = .unchanged
        } else {
            availability = .checking(address)
            return [.call(Endpoint.EmailAvailable(email: address), Reply.availability)]
        }
        return []
    }

    private mutating func submit(_ context: ScreenContext) -> [Command] {
        passwordChecked = true
        isWorking = true
        error = nil
        switch mode {
        case .change:
            return [
                .call(Endpoint.RequestEmailChange(email: typed, reauthToken: context.reauth?.reauthToken), Reply.send)
            ]
        case .add:
            return [.call(Endpoint.AddEmailWithPassword(email: typed, password: password.value), Reply.send)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .availability(let result): receiveAvailability(result)
        case .send(let result): return receiveSent(result, context)
        }
        return []
    }

    private mutating func receiveSent(
        _ result: Result<EmailLinkSent, APIError>, _ context: ScreenContext
    )
        -> [Command]
    {
        isWorking = false
        switch result {
        case .success(let sent):
            // The link knows its address, so a change that has to start again starts with it.
            let link = AnyLinkPurpose(EmailChangeLink(address: sent.sentTo))
            return [.push(CheckEmailScreen(link: link, sentTo: sent.sentTo, sentAt: context.now))]
        case .failure(.taken):
            availability = .taken(typed)
        case .failure(.rateLimited(nil, let message, _)):
            error = message
        case .failure(.rateLimited(let retryAfter?, let message, let kind)):
            limit = RateLimit(
                target: typed, until: context.now.addingTimeInterval(TimeInterval(retryAfter)), kind: kind,
                message: message)
            // The banner says which limit and counts it down; the server's sentence under it said it twice.
            error = nil
        case .failure(.invalid(let codes, let message, _)):
            if let passwordProblem = PasswordChecklist.message(for: codes) {
                password.error = passwordProblem
            } else {
                error = message
            }
        case .failure(.reauthRequired):
            error = Self.expiredReauthText
        case .failure(let failure):
            error = failure.message
        }
        return []
    }

    private mutating func receiveAvailability(_ result: Result<EmailAvailability, APIError>) {
        // A reply about an address no longer in the field is old news.
        guard case .checking(let asked) = availability, asked == typed else { return }
        switch result {
        case .success(let answer):
            availability = answer.available ? .available(asked) : .taken(asked)
        case .failure(.invalid):
            availability = .invalid
        case .failure(let failure):
            availability = .idle
            error = failure.message
        }
    }

    var emailProblem: String? {
        switch availability {
        case .taken(let address) where address == typed: return Self.takenText
        case .invalid: return Self.invalidText
        case .unchanged: return Self.unchangedText
        default: return nil
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        switch mode {
        case .change(let current): canvas.title("New email", subtitle: "Current: \(current)")
        case .add: canvas.title("Add email & password", subtitle: "Use it to sign in and recover your account.")
        }
        var shownEmail = email
        shownEmail.isFocused = focus == .email
        shownEmail.isDisabled = isWorking
        shownEmail.error = emailProblem
        canvas.field(shownEmail)
        switch availability {
        case .checking: canvas.paragraph("Checking…", style: .muted)
        case .available(let address) where address == typed: canvas.paragraph("Available", style: .success)
        default: break
        }
        if isAdding {
            var shownPassword = password
            shownPassword.isFocused = focus == .password
            shownPassword.isDisabled = isWorking
            // Its rules right under it, so Send link stays in view at 80×24.
            canvas.field(shownPassword, spacing: 0)
            PasswordChecklist(password: password.value, checkedAll: passwordChecked).draw(into: &canvas)
        }
        if let error { canvas.paragraph(error, style: .danger) }
        canvas.button(
            "Send link", working: "Sending link…", isReady: canSubmit(context), isFocused: focus == .cta,
            isWorking: isWorking)
    }
}
