import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Continue with…" (seed 004): one screen for signing in and signing up, the backend deciding
/// whether the account is new. Apple and Google need the reference backend's stand-in for the
/// provider's sheet; elsewhere their rows say they are not available here and explain why.
public struct SignInScreen: ScreenModel {
    public enum Row: Int, CaseIterable, Sendable {
        case phone, email, apple, google, passkey, password, recover, support
    }

    public var selection: Int
    /// Why the person is here, when it is not their choice ("Session expired, please login").
    public var notice: String?
    /// Continue with passkey is under way (its options, or the sheet's answer).
    public var isWorking: Bool
    /// How Continue with passkey ended when it did not sign in: a refusal, or the user's cancel.
    public var error: String?

    public init(selection: Int = 0, notice: String? = nil, isWorking: Bool = false, error: String? = nil) {
        self.selection = selection
        self.notice = notice
        self.isWorking = isWorking
        self.error = error
    }

    public var id: String { "sign-in" }

    static let noAppleHereText = "Signed up with Apple? Apple sign-in isn't available on Android"

    /// Seed 002's words for a session that could not be refreshed.
    public static let sessionExpiredText = OnScreenMessage.sessionExpired.text

    func rows(_ context: ScreenContext) -> [ListRow] {
        let simulated = context.options.hasReferenceBackend
        func provider(_ name: String) -> ListRow {
            ListRow(
                "Continue with \(name)", detail: simulated ? "No code needed" : "Paste an ID token",
                control: .chevron)
        }
        return shown(context).map { row in
            switch row {
            case .phone: ListRow("Continue with phone", detail: "We'll text you a 6-digit code", control: .chevron)
            case .email: ListRow("Continue with email", detail: "We'll email you a 6-digit code", control: .chevron)
            case .apple: provider("Apple")
            case .google: provider("Google")
            // One line: the screen holds every way in at 80×24.
            case .passkey: ListRow("Continue with passkey", control: .chevron)
            case .password: ListRow("Email & password", detail: "Log in, or register a new account", control: .chevron)
            case .recover: ListRow("Can't access your account?")
            // On Android an account that signs in only with Apple has no way in here: support is its way.
            case .support:
                context.options.platform == .ios
                    ? ListRow("Contact support") : ListRow("Contact support", detail: Self.noAppleHereText)
            }
        }
    }

    /// The screen with `row` chosen, as after coming back from it.
    static func selecting(_ row: Row, _ context: ScreenContext) -> SignInScreen {
        var screen = SignInScreen()
        screen.selection = screen.shown(context).firstIndex(of: row) ?? 0
        return screen
    }

    /// Sign in with Apple is an Apple-platform button: not offered on Android, as on the hub.
    func shown(_ context: ScreenContext) -> [Row] {
        Row.allCases.filter { $0 != .apple || context.options.platform == .ios }
    }

    public enum Intent: Sendable { case up, down, open }
    public enum Reply: Equatable, Sendable {
        /// The sign-in options with what this device holds for them.
        case passkeyPrompt(Result<PasskeyPrompt, APIError>)
        /// The "Use your passkey" sheet approved.
        case signedIn(Result<SignedIn, APIError>)
    }

    /// Esc on the "Use your passkey" sheet: the user's cancel, said inline; nothing was sent.
    public enum Choice: Equatable, Sendable { case passkeyCancelled }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [.move(up: .up, down: .down), .open("Continue", .open)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let rows = shown(context)
        switch intent {
        case .up:
            selection = max(0, selection - 1)
        case .down:
            selection = min(rows.count - 1, selection + 1)
        case .open:
            guard !isWorking else { return [] }
            notice = nil
            error = nil
            switch rows[min(selection, rows.count - 1)] {
            case .passkey:
                isWorking = true
                return [.call(PasskeySignInPrompt(), Reply.passkeyPrompt)]
            case .phone: return [.push(EnterPhoneScreen.signIn(region: context.options.deviceRegion))]
            case .email: return [.push(SignInEmailScreen())]
            // Without the simulated provider, the provider's ID token is pasted instead.
            case .apple: return [.push(Providers.signIn(with: .apple, context))]
            case .google: return [.push(Providers.signIn(with: .google, context))]
            case .password: return [.push(PasswordLoginScreen())]
            case .recover: return [.push(RecoveryRequestScreen())]
            case .support: return [.contactSupport(typed: nil)]
            }
        }
        return []
    }

    /// The "Use your passkey" sheet over sign-in: Enter signs in with the chosen account's passkey.
    static func passkeySheet(_ prompt: PasskeyPrompt) -> Sheet {
        .usePasskey(
            prompt, .signIn,
            approve: { account in
                [
                    .call(
                        SignInWithDevicePasskey(options: prompt.options, credentialID: account.credentialID),
                        Reply.signedIn)
                ]
            },
            cancel: prompt.accounts.isEmpty ? [] : [.returnTo(SignInScreen.self, with: .passkeyCancelled)])
    }

    public mutating func receiveChoice(_ choice: Choice, _ context: ScreenContext) -> [Command] {
        isWorking = false
        error = PasskeyWording.cancelledText
        return []
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .passkeyPrompt(.success(let prompt)):
            // The sheet is the device's prompt: its Enter signs and sends, its Esc is the user's cancel.
            isWorking = !prompt.accounts.isEmpty
            return [.showSheet(Self.passkeySheet(prompt))]
        case .signedIn(.success(let signedIn)):
            return [.signedIn(signedIn)]
        case .passkeyPrompt(.failure(let failure)), .signedIn(.failure(let failure)):
            error = PasskeyWording.refusal(failure, .signIn)
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(
            "Sign in to \(context.options.brand.name)",
            subtitle: "New here? Continue the same way to create an account.")
        if let notice {
            canvas.paragraph(notice, style: notice == Self.sessionExpiredText ? .danger : .muted)
        }
        if let error { canvas.paragraph(error, style: .danger) }
        for (index, (kind, row)) in zip(shown(context), rows(context)).enumerated() {
            var row = row
            row.isSelected = index == selection
            // With Continue with passkey (issue 53) the ways in fill 80×24: Email & password and the way back
            // into a lost account follow without a gap of their own, so Contact support stays on screen.
            // Support sits right under the way back, the two ways out of a dead end.
            canvas.row(row, spacing: kind == .recover ? 0 : 1)
        }
    }
}
