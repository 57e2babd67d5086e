import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Use a recovery code": the second step of a sign-in with one of the ten codes saved at set-up, typed
/// as "xxxxx-xxxxx" (case and the dash do not matter to the backend). The code is spent; when one or none
/// is left after it, a sheet says so over where the sign-in goes. Shown as typed (it is read off paper),
/// masked in recordings and never written to a tape.
public struct RecoveryCodeSignInScreen: ScreenModel {
    public var field: TextField
    public var isWorking: Bool
    /// The same per-account lock as the app's codes: until then the field is off.
    public var lockedUntil: Date?
    /// Which limit the lock is, as the answer named it: the banner's words (issue 46 item 5).
    public var lockKind: RateLimitKind?

    public init(
        code: String = "", error: String? = nil, isWorking: Bool = false, lockedUntil: Date? = nil,
        lockKind: RateLimitKind? = nil
    ) {
        field = TextField(
            label: "Recovery code", value: code, placeholder: "xxxxx-xxxxx", error: error, isFocused: true,
            maxLength: Self.maxLength)
        self.isWorking = isWorking
        self.lockedUntil = lockedUntil
        self.lockKind = lockKind
    }

    /// Room for a code typed with spaces around its dash; a runaway paste stops there.
    static let maxLength = 16
    static let incorrectText = "That recovery code isn't right, or it was used already."

    public var id: String { "recovery-code" }
    public var takesText: Bool { true }
    public var secretEntry: SecretEntry? { .password }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.field.isMasked = true
        return copy
    }

    public var needsClock: Bool { lockedUntil != nil }
    func isLocked(_ context: ScreenContext) -> Bool { RateLimit.lasting(lockedUntil, at: context.now) != nil }
    public func banner(_ context: ScreenContext) -> Banner? {
        RateLimit.banner(until: lockedUntil, kind: lockKind, at: context.now)
    }

    /// Letters, digits and the dash, in any case, ignoring spaces: the shape the backend compares.
    var typedCode: String { field.value.filter { !$0.isWhitespace } }

    func canSubmit(_ context: ScreenContext) -> Bool { !isWorking && !isLocked(context) && !typedCode.isEmpty }

    public enum Intent: Sendable { case submit }
    public enum Reply: Equatable, Sendable { case signIn(Result<RecoveredSignIn, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        canSubmit(context) ? [KeyBinding([.enter], "Sign in", .submit)] : []
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard canSubmit(context) else { return [] }
        isWorking = true
        field.error = nil
        return [.call(SignInWithRecoveryCode(recoveryCode: Secret(typedCode)), Reply.signIn)]
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking, !isLocked(context) else { return event.isTextEditing ? [] : nil }
        guard field.handle(event) else { return nil }
        field.error = nil
        return []
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .signIn(.success(let recovered)):
            var commands: [Command] = [.signedIn(recovered.signedIn)]
            if let left = recovered.codesRemaining, left <= 1 {
                commands.append(.showSheet(.recoveryCodesRunningOut(left)))
            } else if let left = recovered.codesRemaining {
                commands.append(.showToast("Signed in with a recovery code. \(left) codes left."))
            }
            return commands
        case .signIn(.failure(.rateLimited(let retryAfter?, _, let kind))):
            lockedUntil = context.now.addingTimeInterval(TimeInterval(retryAfter))
            lockKind = kind
            field.error = TwoFactor.lockedText
        case .signIn(.failure(.codeIncorrect(let remaining, _))) where remaining > 0:
            field.error = "\(Self.incorrectText) \(CodeEntry.attemptsLeft(remaining))."
        case .signIn(.failure(.codeIncorrect)):
            field.error = TwoFactor.lockedText
        case .signIn(.failure(let failure)):
            field.error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        guard let lockedUntil, context.now >= lockedUntil else { return [] }
        self.lockedUntil = nil
        lockKind = nil
        field.error = nil
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(TwoFactor.useRecoveryCodeText)
        canvas.paragraph("Enter one of the recovery codes you saved when you set up two-factor. Each works once.")
        var shown = field
        shown.isDisabled = isLocked(context)
        shown.isFocused = !isWorking && !shown.isDisabled
        canvas.field(shown)
        canvas.button(
            "Sign in", working: "Signing in…", isReady: canSubmit(context), isFocused: false, isWorking: isWorking)
        canvas.paragraph("Esc goes back to the code from your app.", style: .muted)
    }
}
