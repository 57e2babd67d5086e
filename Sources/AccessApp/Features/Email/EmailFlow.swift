import AccessAPI
import Foundation

/// The two sensitive flows of the sub-hub ("Verify it's you" first, without the flow's own target).
public enum EmailFlow: String, SensitiveFlow {
    case changeEmail = "change_email"
    case changePassword = "change_password"

    public var target: ReauthMethod? { self == .changeEmail ? .email : .password }

    public var pickerExplanation: String {
        self == .changeEmail
            ? "To change your email, confirm with one of your active sign-in methods."
            : "To change your password, confirm with one of your active sign-in methods."
    }

    /// From the sub-hub: the last-method warning when the account has nothing but the email to verify
    /// with, no password either (seed 000's soft warning, as for the phone), else "Verify it's you" unless
    /// its window is still open.
    static func begin(_ flow: EmailFlow, _ context: ScreenContext) -> [Command] {
        guard let methods = context.methods else { return [] }
        if flow == .changeEmail, methods.sessionSuffices(for: flow.target) { return [.showSheet(.lastEmailMethod)] }
        return Reauth.verifyThen(flow, context)
    }

    public func start(_ context: ScreenContext) -> [Command] {
        switch self {
        case .changeEmail:
            guard let current = context.methods?.email else { return [] }
            return [.popTo(EmailPasswordScreen.self), .push(NewEmailScreen(mode: .change(current: current)))]
        case .changePassword:
            return [.popTo(EmailPasswordScreen.self), .push(SetPasswordScreen())]
        }
    }

    /// "Last changed 2 months ago" (seed 001), on the app clock.
    static func lastChanged(_ date: Date, now: Date) -> String {
        let days = Int(max(0, now.timeIntervalSince(date)) / 86_400)
        switch days {
        case 0: return "Last changed today"
        case 1: return "Last changed yesterday"
        case 2..<30: return "Last changed \(days) days ago"
        case 30..<365:
            let months = days / 30
            return "Last changed \(months) month\(months == 1 ? "" : "s") ago"
        default:
            let years = days / 365
            return "Last changed \(years) year\(years == 1 ? "" : "s") ago"
        }
    }
}
