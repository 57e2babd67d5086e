import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Continue with email (seed 004): the address, checked here first (seed 002's "Please enter a valid
/// email address"), then a 6-digit code by email on the shared code screen.
public struct SignInEmailScreen: EmailEntryScreen {
    public var email: TextField
    public var isWorking: Bool
    public var error: String?
    /// The server's 429 for this address: sending it is off until the limit passes.
    public var limit: RateLimit?
    /// Seed 004's optional display name, under the address; Enter sends from either field.
    public var displayName: DisplayNameInput
    public var focus: Focus
    /// A challenge whose code was refused only for the display name: sending the same address again goes
    /// back to that code with the corrected name rather than asking for another.
    public var refusedChallenge: SignInChallenge?
    /// The error shown is the hold on a deleted account's address: Contact support is offered beside it.
    public var isHeld = false

    public enum Focus: Equatable, Sendable { case email, displayName }

    public init(
        email: String = "", isWorking: Bool = false, error: String? = nil, limit: RateLimit? = nil,
        displayName: DisplayNameInput = DisplayNameInput(), focus: Focus = .email,
        refusedChallenge: SignInChallenge? = nil
    ) {
        self.email = TextField(
            label: "Email", value: email, placeholder: "name@example.com", maxLength: EmailRules.maximumLength)
        self.isWorking = isWorking
        self.error = error
        self.limit = limit
        self.displayName = displayName
        self.focus = focus
        self.refusedChallenge = refusedChallenge
    }

    static let offlineText = OnScreenMessage.offline.text

    public var id: String { "sign-in-email" }

    public enum Intent: Sendable { case send, nextField, support }
    public enum Reply: Equatable, Sendable { case code(Result<SignInChallenge, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [.nextField(next: .nextField, previous: .nextField), KeyBinding([.enter], "Send code", .send)]
            + (isHeld && error != nil ? [KeyBinding([.control("s")], "Contact support", .support)] : [])
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .nextField:
            focus = focus == .email ? .displayName : .email
            return []
        case .support:
            return [.contactSupport(typed: .email(typed))]
        case .send:
            // A name that breaks the rule is said under its field already; nothing goes.
            guard displayName.problem == nil, let address = addressToSend(context) else { return [] }
            if let challenge = refusedChallenge, EmailRules.same(challenge.destination, address),
                context.now < challenge.expiresAt
            {
                isWorking = false
                refusedChallenge = nil
                return [.push(EnterCodeScreen(signIn: challenge, channel: .email, displayName: displayName.name))]
            }
            return [.call(Endpoint.StartSignInCode(channel: .email, email: address), Reply.code)]
        }
    }

    /// Typing and pasting the address or the name.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard focus == .displayName else { return editEmail(event) }
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        return displayName.handle(event) ? [] : nil
    }

    /// Back from the code screen: the server refused the name.
    public mutating func receiveChoice(_ refused: DisplayNameRefused, _ context: ScreenContext) -> [Command] {
        displayName.serverError = refused.message
        refusedChallenge = refused.challenge
        focus = .displayName
        return []
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .code(.success(let challenge)):
            sent()
            refusedChallenge = nil
            return [.push(EnterCodeScreen(signIn: challenge, channel: .email, displayName: displayName.name))]
        case .code(.failure(let failure)):
            sendFailed(failure, context)
            isHeld = SupportTicket.isHold(failure)
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Continue with email", subtitle: "We'll email you a code. New here? This creates your account.")
        var address = shownEmail
        address.isFocused = focus == .email && !isWorking
        canvas.field(address)
        canvas.field(displayName.shown(isFocused: focus == .displayName && !isWorking, isDisabled: isWorking))
        canvas.button(
            "Send code", working: "Sending code…", isReady: canSubmit(context) && displayName.problem == nil,
            isFocused: false, isWorking: isWorking)
    }
}
