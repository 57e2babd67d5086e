import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The Email & password branch of seeds 000/001: the sub-hub, change email, add email & password,
/// and set a new password. Links go through the shared EmailLink screens.
enum EmailFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        EmailPasswordScreen.self, NewEmailScreen.self, SetPasswordScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.emailGallery }
}

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

// MARK: - Links

/// The link of an email change or add: opening it applies the change (a new session comes with it).
public struct EmailChangeLink: LinkPurpose {
    public init() {}
    public var resend: AnyRequest? { AnyRequest(ResendEmailLink()) }
    public func confirm(token: String) -> AnyRequest { AnyRequest(VerifyEmailLink(token: token)) }
    public func confirmed(_ reply: AnyValue, _ context: ScreenContext) -> [Command]? {
        guard let verified = reply.as(EmailVerified.self) else { return nil }
        return [
            .setMethods(verified.authMethods),
            .popToNearest(EmailPasswordScreen.self, HubScreen.self, SettingsScreen.self),
            .showToast("Email updated to \(verified.authMethods.email ?? "your new address")."),
        ]
    }
    public func accepts(_ message: OutboxMessage) -> Bool {
        message.outboxKind == .emailVerifyLink && message.purpose != RegistrationLink.purpose
    }
    public var canEditAddress: Bool { true }
    public var linkPath: String { "verify-email" }
}

/// The link in the old address's notice: the email goes back and every session ends.
public struct RevertEmailLink: LinkPurpose {
    public init() {}
    /// A revert link is not sent on request: it comes with a change.
    public var resend: AnyRequest? { nil }
    public func confirm(token: String) -> AnyRequest { AnyRequest(RevertEmailChange(token: token)) }
    public func confirmed(_ reply: AnyValue, _ context: ScreenContext) -> [Command]? {
        guard let reverted = reply.as(EmailReverted.self) else { return nil }
        return [
            .popToNearest(SettingsScreen.self),
            .showToast("Your email is \(reverted.email) again. Every session was signed out."),
        ]
    }
    public func accepts(_ message: OutboxMessage) -> Bool { message.outboxKind == .emailChangedNotice }
    public var canEditAddress: Bool { false }
    public var linkPath: String { "revert-email" }
}

// MARK: - Requests

struct CheckEmailAvailability: APIRequest {
    var email: String
    func perform(_ api: APIContext) async throws -> EmailAvailability {
        try await api.client.emailAvailability(email)
    }
}

struct RequestEmailChange: APIRequest {
    var email: String
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> EmailLinkSent {
        try await api.client.requestEmailChange(to: email, reauthToken: reauthToken)
    }
}

struct AddEmailWithPassword: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> EmailLinkSent {
        try await api.client.addEmail(email, password: password.value)
    }
}

struct ResendEmailLink: APIRequest {
    func perform(_ api: APIContext) async throws -> EmailLinkSent { try await api.client.resendEmailLink() }
}

struct VerifyEmailLink: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> EmailVerified {
        try await api.client.verifyEmailLink(token: token)
    }
}

struct RevertEmailChange: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> EmailReverted {
        try await api.client.revertEmailChange(token: token)
    }
}

struct ChangePassword: APIRequest {
    var newPassword: Secret
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> PasswordChanged {
        try await api.client.changePassword(to: newPassword.value, reauthToken: reauthToken)
    }
}

// MARK: - Password checklist

/// Seed 001's three visible rules: the first checked as you type, the other two once the field is
/// left or submitted (`checkedAll`); "not similar to your email" is the server's alone.
struct PasswordChecklist {
    var password: String
    var checkedAll: Bool

    static let visible: [PasswordRule] = [.tooShort, .tooCommon, .allDigits]

    func lines(glyphs: Glyphs) -> [(text: String, style: Style)] {
        let broken = Set(PasswordRules.violations(password, email: nil))
        return Self.visible.map { rule in
            let label = rule.checklistLabel ?? rule.message
            guard checkedAll || rule == .tooShort, !password.isEmpty else {
                return ("\(glyphs == .ascii ? "-" : "○") \(label)", .muted)
            }
            return broken.contains(rule)
                ? ("\(glyphs == .ascii ? "x" : "✗") \(label)", .danger)
                : ("\(glyphs == .ascii ? "+" : "✓") \(label)", .success)
        }
    }

    func draw(into canvas: inout Canvas) {
        for line in lines(glyphs: canvas.glyphs) { canvas.paragraph(line.text, style: line.style, spacing: 0) }
        canvas.skip(1)
    }

    /// The server's codes, as sentences for under the field.
    static func message(for codes: [String]) -> String? {
        if codes.contains(PasswordRules.unchangedCode) { return SetPasswordScreen.unchangedText }
        return codes.lazy.compactMap(PasswordRule.init(rawValue:)).first?.message
    }
}

extension PasswordRules {
    /// The server's extra rule on a change (seed 001: "Pick something different…").
    static let unchangedCode = "password_unchanged"
}

// MARK: - Sheets

extension Sheet {
    /// Soft warning: the email is the account's only sign-in method and there is no password to verify
    /// with (seed 000), so no re-auth.
    static var lastEmailMethod: Sheet {
        Sheet(
            title: "This is your only sign-in method",
            body:
                "Changing your email without a backup means if something goes wrong — a typo, a mailbox you can't open — you could lose access. We recommend adding another method first.",
            actions: [
                (.init("Change email anyway", isDestructive: true), [.continueFlow(EmailFlow.changeEmail)]),
                (.init("Cancel"), []),
            ])
    }

    static var emailGallery: [GalleryEntry] {
        [
            GalleryEntry("email-password:last-method", "Soft warning before changing an only email") { now in
                var methods = SampleData.emailOnly
                methods.hasPassword = false
                var state = SampleData.state([EmailPasswordScreen()], methods: methods, now: now)
                state.overlay = .sheet(.lastEmailMethod)
                return state
            }
        ]
    }
}
