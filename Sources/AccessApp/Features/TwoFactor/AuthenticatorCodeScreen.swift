import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Enter the code from your authenticator app": six boxes that send when full. Two uses: the second
/// step of a sign-in (the session passed its first factor only and can do nothing else: the screen
/// stands alone, with "Use a recovery code" and Log out), and "Authenticator app" in "Verify it's you".
/// Five wrong codes lock the step (per account); the lock's wait counts down in a banner from the app's
/// clock, never stored as a count.
public struct AuthenticatorCodeScreen: ScreenModel {
    public enum Purpose: Equatable, Sendable {
        /// The second step of a sign-in: the right code finishes it.
        case signIn
        /// "Verify it's you" for `flow`: the right code opens the 15-minute window, then the flow goes on.
        case reauth(AnyFlow)
    }

    public var purpose: Purpose
    public var otp: OTPInput
    /// The last wrong code's attempts left; nil when there is nothing to say.
    public var attemptsRemaining: Int?
    /// Any other failure, in words.
    public var error: String?
    public var isWorking: Bool
    /// Five wrong codes locked the step until then.
    public var lockedUntil: Date?

    public init(
        purpose: Purpose = .signIn, digits: String = "", attemptsRemaining: Int? = nil, error: String? = nil,
        isWorking: Bool = false, lockedUntil: Date? = nil
    ) {
        self.purpose = purpose
        otp = OTPInput(digits: digits)
        self.attemptsRemaining = attemptsRemaining
        self.error = error
        self.isWorking = isWorking
        self.lockedUntil = lockedUntil
    }

    public var id: String { "authenticator-code" }
    public var takesText: Bool { true }
    /// The code comes from an app, never from the outbox: a tape's `code` types the one the admin API shows.
    public var secretEntry: SecretEntry? { .authenticator(setupSecret: nil) }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.otp.isConcealed = true
        return copy
    }

    public var needsClock: Bool { lockedUntil != nil }

    func isLocked(_ context: ScreenContext) -> Bool { RateLimit.lasting(lockedUntil, at: context.now) != nil }

    public func banner(_ context: ScreenContext) -> Banner? { RateLimit.banner(until: lockedUntil, at: context.now) }

    public enum Intent: Sendable { case verify, recoveryCode, logOut }
    public enum Reply: Equatable, Sendable {
        case signIn(Result<SignedIn, APIError>)
        case reauth(Result<ReauthGrant, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if otp.isComplete, !isWorking, !isLocked(context) {
            bindings.append(KeyBinding([.enter], "Verify", inFooter: false, .verify))
        }
        if purpose == .signIn {
            bindings.append(KeyBinding([.character("u")], TwoFactor.useRecoveryCodeText, .recoveryCode))
            // The session can do nothing else: nothing to go back to, and Log out is the way out.
            bindings.append(KeyBinding([.escape], "Log out", .logOut))
        }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .verify: return verify(context)
        case .recoveryCode: return [.push(RecoveryCodeSignInScreen())]
        case .logOut: return [.showSheet(.confirmLogout)]
        }
    }

    /// Typing and pasting the digits.
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking, !isLocked(context) else { return event.isTextEditing ? [] : nil }
        let edit = otp.edit(event)
        if case .ignored = edit { return event.isTextEditing ? [] : nil }
        guard edit.changedCode else { return [] }
        error = nil
        attemptsRemaining = nil
        return otp.isComplete ? verify(context) : []
    }

    private mutating func verify(_ context: ScreenContext) -> [Command] {
        guard !isWorking, !isLocked(context), otp.isComplete else { return [] }
        isWorking = true
        error = nil
        let code = Secret(otp.code)
        switch purpose {
        case .signIn: return [.call(VerifySecondFactor(code: code), Reply.signIn)]
        case .reauth: return [.call(Endpoint.ReauthAuthenticator(code: otp.code), Reply.reauth)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
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
        otp.startsOver = true
        switch failure {
        case .rateLimited(let retryAfter?, _, _):
            lock(seconds: retryAfter, context)
        case .codeIncorrect(let remaining, _) where remaining <= 0:
            // The fifth wrong code locks the step; its answer may carry the wait.
            lockedUntil = nil
            attemptsRemaining = 0
            error = lockedText
        case .codeIncorrect(let remaining, _):
            attemptsRemaining = remaining
            error = TwoFactor.incorrectText
        default:
            error = failure.message
        }
    }

    private mutating func lock(seconds: Int, _ context: ScreenContext) {
        lockedUntil = context.now.addingTimeInterval(TimeInterval(seconds))
        attemptsRemaining = nil
        error = lockedText
    }

    var lockedText: String { purpose == .signIn ? TwoFactor.lockedText : TwoFactor.lockedReauthText }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        guard let lockedUntil, context.now >= lockedUntil else { return [] }
        self.lockedUntil = nil
        error = nil
        otp.clear()
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(purpose == .signIn ? TwoFactor.title : "Verify it's you")
        canvas.paragraph(TwoFactor.enterCodeText + ".")
        let locked = isLocked(context)
        var boxes = otp
        boxes.isDisabled = locked
        boxes.isFocused = !isWorking && !locked
        boxes.error = error
        canvas.draw(height: boxes.height, isFocused: boxes.isFocused) { grid, rect in
            boxes.render(into: &grid, in: rect, glyphs: context.glyphs)
        }
        if let attemptsRemaining, attemptsRemaining > 0, error == TwoFactor.incorrectText {
            canvas.centered(TwoFactor.attemptsLeft(attemptsRemaining), style: .muted)
        }
        if isWorking { canvas.centered("Verifying…", style: .muted) }
        guard purpose == .signIn else {
            canvas.paragraph("The code changes every 30 seconds. Esc goes back to verify another way.", style: .muted)
            return
        }
        canvas.paragraph("Can't use your app? Press u to \(TwoFactor.useRecoveryCodeText.lowercased()).", style: .muted)
        canvas.paragraph("Esc logs out.", style: .muted)
    }
}
