import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Enter the code from your authenticator app": six boxes that send when full. Two uses: the second
/// step of a sign-in (the session passed its first factor only and can do nothing else: the screen
/// stands alone, with "Use a recovery code", Contact support for a person who lost both, and Log out), and
/// "Authenticator app" in "Verify it's you".
/// Five wrong codes lock the step (per account); the lock's wait counts down in a banner from the app's
/// clock, never stored as a count. The boxes and the lock are the code-entry core (`CodeEntry`).
public struct AuthenticatorCodeScreen: ScreenModel {
    public enum Purpose: Equatable, Sendable {
        /// The second step of a sign-in: the right code finishes it.
        case signIn
        /// "Verify it's you" for `flow`: the right code opens the 15-minute window, then the flow goes on.
        case reauth(AnyFlow)
    }

    public var purpose: Purpose
    /// The boxes, what the last answer said, and the lock five wrong codes start.
    public var entry: CodeEntry

    public init(
        purpose: Purpose = .signIn, digits: String = "", refusal: CodeEntry.Refusal? = nil, isWorking: Bool = false,
        lock: RateLimit? = nil
    ) {
        self.purpose = purpose
        entry = CodeEntry(digits: digits, refusal: refusal, isWorking: isWorking, lock: lock)
    }

    public var id: String { "authenticator-code" }
    public var takesText: Bool { true }
    /// The code comes from an app, never from the outbox: a tape's `code` types the one the admin API shows.
    public var secretEntry: SecretEntry? { .authenticator(setupSecret: nil) }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.entry.otp.isConcealed = true
        return copy
    }

    public var needsClock: Bool { entry.lock != nil }

    public func banner(_ context: ScreenContext) -> Banner? { entry.banner(at: context.now) }

    public enum Intent: Sendable { case verify, recoveryCode, support, logOut }
    public enum Reply: Equatable, Sendable {
        case signIn(Result<SignedIn, APIError>)
        case reauth(Result<ReauthGrant, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if entry.canSend(at: context.now) {
            bindings.append(KeyBinding([.enter], "Verify", inFooter: false, .verify))
        }
        if purpose == .signIn {
            // A lock refuses recovery codes too: offered only when one can be used.
            if !entry.isLocked(at: context.now) {
                bindings.append(KeyBinding([.character("u")], TwoFactor.useRecoveryCodeText, .recoveryCode))
            }
            bindings.append(KeyBinding([.character("s")], "Contact support", .support))
            // The session can do nothing else: nothing to go back to, and Log out is the way out.
            bindings.append(KeyBinding([.escape], "Log out", .logOut))
        }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .verify: return verify(context)
        case .recoveryCode: return [.push(RecoveryCodeSignInScreen())]
        case .support: return [.contactSupport(typed: nil)]
        case .logOut: return [.showSheet(.confirmLogout)]
        }
    }

    /// Typing and pasting the digits.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard let typed = entry.type(event, at: context.now) else { return nil }
        return typed == .full ? verify(context) : []
    }

    private mutating func verify(_ context: ScreenContext) -> [Command] {
        guard entry.canSend(at: context.now) else { return [] }
        entry.sending()
        let code = Secret(entry.otp.code)
        switch purpose {
        case .signIn: return [.call(VerifySecondFactor(code: code), Reply.signIn)]
        case .reauth: return [.call(Endpoint.ReauthAuthenticator(code: entry.otp.code), Reply.reauth)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        entry.isWorking = false
        switch reply {
        case .signIn(.success(let signedIn)):
            return [.signedIn(signedIn)]
        case .reauth(.success(let grant)):
            guard case .reauth(let flow) = purpose else { return [] }
            return [.grantReauth(grant), .continueFlow(flow)]
        case .signIn(.failure(let failure)), .reauth(.failure(let failure)):
            fail(failure, context)
            return []
        }
    }

    private mutating func fail(_ failure: APIError, _ context: ScreenContext) {
        // A refused code stays in view; the next digit starts a new one.
        entry.otp.startsOver = true
        switch entry.refused(failure, now: context.now, lockedText: lockedText) {
        case nil:
            break
        case .codeIncorrect?:
            // The fifth wrong code locks the step; its answer carries the wait (then it is the lock above).
            entry.refusal = .message(lockedText)
        case let other?:
            entry.refusal = .message(other.message)
        }
    }

    var lockedText: String { purpose == .signIn ? TwoFactor.lockedText : TwoFactor.lockedReauthText }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        entry.tick(at: context.now)
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(purpose == .signIn ? TwoFactor.title : "Verify it's you")
        canvas.paragraph(TwoFactor.enterCodeText + ".")
        entry.draw(into: &canvas, context)
        if entry.isWorking { canvas.centered("Verifying…", style: .muted) }
        guard purpose == .signIn else {
            canvas.paragraph(
                "The code changes every \(RuleText.duration(TOTP.period)). Esc goes back to verify another way.",
                style: .muted)
            return
        }
        if !entry.isLocked(at: context.now) {
            canvas.paragraph(
                "Can't use your app? Press u to \(TwoFactor.useRecoveryCodeText.lowercased()).", style: .muted)
        }
        canvas.paragraph(TwoFactor.lostEverythingText, style: .muted)
        canvas.paragraph("Esc logs out.", style: .muted)
    }
}
