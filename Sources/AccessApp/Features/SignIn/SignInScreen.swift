import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// "Continue with…" (seed 004): one screen for signing in and signing up, the backend deciding
/// whether the account is new. Apple and Google need the reference backend's stand-in for the
/// provider's sheet; elsewhere their rows say they are not available here and explain why.
public struct SignInScreen: ScreenModel {
    public enum Row: Int, CaseIterable, Sendable { case phone, email, apple, google, password, recover, support }

    public var selection: Int
    /// Why the person is here, when it is not their choice ("Session expired, please login").
    public var notice: String?

    public init(selection: Int = 0, notice: String? = nil) {
        self.selection = selection
        self.notice = notice
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
            notice = nil
            switch rows[min(selection, rows.count - 1)] {
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

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(
            "Sign in to \(context.options.brand.name)",
            subtitle: "New here? Continue the same way to create an account.")
        if let notice {
            canvas.paragraph(notice, style: notice == Self.sessionExpiredText ? .danger : .muted)
        }
        for (index, (kind, row)) in zip(shown(context), rows(context)).enumerated() {
            var row = row
            row.isSelected = index == selection
            // Email & password stands apart: seed 002's older way in, next to seed 004's four; the way
            // back into a lost account apart again, below the ways in (under a notice, 24 rows hold
            // only one gap).
            if kind == .password || (kind == .recover && notice == nil) { canvas.skip(1) }
            // Support sits right under the way back, the two ways out of a dead end.
            canvas.row(row, spacing: kind == .recover ? 0 : 1)
        }
    }
}
