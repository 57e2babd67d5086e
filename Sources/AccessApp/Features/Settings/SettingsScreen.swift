import AccessAPI
import Foundation
import TerminalKit

/// Settings root: the way into Account access, the screen gallery, the keyboard check and, at
/// the bottom, Log out (seed 000: a session action, so here and not on the hub). While the recovery
/// email waits for its link, a reminder on top (seed 003: "Reminder in app to verify email later")
/// with Resend. After a recovery by email, limited access says so on top and "Verify your phone"
/// comes first.
public struct SettingsScreen: ScreenModel {
    public var selection: Int
    /// Resend waits until then (30 s after a send, or the server's 429).
    public var resendAfter: Date?
    public var isResending: Bool
    public var error: String?

    public init(selection: Int = 0, resendAfter: Date? = nil, isResending: Bool = false, error: String? = nil) {
        self.selection = selection
        self.resendAfter = resendAfter
        self.isResending = isResending
        self.error = error
    }

    public var id: String { "settings" }
    public var needsClock: Bool { resendAfter != nil }

    static let resendKey = Key.character("v")
    static let resentText = "We sent the link again."

    /// The address waiting for its link, if one is.
    static func unverifiedEmail(_ context: ScreenContext) -> String? {
        guard let profile = context.profile, !profile.emailVerified else { return nil }
        return profile.email
    }

    func canResend(_ context: ScreenContext) -> Bool {
        Self.unverifiedEmail(context) != nil && !isResending && resendAfter.map { context.now >= $0 } ?? true
    }

    enum Row: CaseIterable { case verifyPhone, accountAccess, gallery, keyboardCheck, logout }

    static func rows(_ context: ScreenContext) -> [Row] {
        Row.allCases.filter { $0 != .verifyPhone || LimitedAccess.applies(context) }
    }

    /// Log out's place with full access (no "Verify your phone" above it).
    static let logoutRow = Row.allCases.count - 2

    static func listRow(_ row: Row, platform: AppOptions.Platform) -> ListRow {
        switch row {
        case .verifyPhone:
            ListRow("Verify your phone", detail: "Your old number or a new one", control: .pill("Verify"))
        case .accountAccess:
            ListRow("Account access", detail: accountAccessDetail(platform), control: .chevron)
        case .gallery: ListRow("Screen gallery", detail: "Every screen in every state, for demos", control: .chevron)
        case .keyboardCheck:
            ListRow("Keyboard check", detail: "See what your terminal sends: keys and paste", control: .chevron)
        case .logout: ListRow("Log out", isDestructive: true)
        }
    }

    /// What the hub holds, as the hub shows it: no Apple on Android (seed 000), where its row is hidden.
    static func accountAccessDetail(_ platform: AppOptions.Platform) -> String {
        platform == .ios
            ? "Phone number, email & password, Apple, Google, passkeys"
            : "Phone number, email & password, Google, passkeys"
    }

    public enum Intent: Sendable { case up, down, open, resend }
    public enum Reply: Equatable, Sendable { case resend(Result<VerificationResent, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = [.move(up: .up, down: .down), .open("Open", .open)]
        if canResend(context) { bindings.append(KeyBinding([Self.resendKey], "Resend verification link", .resend)) }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let rows = Self.rows(context)
        switch intent {
        case .resend:
            guard canResend(context), let email = Self.unverifiedEmail(context) else { return [] }
            isResending = true
            error = nil
            return [.call(Endpoint.ResendRegistrationLink(email: email), Reply.resend)]
        case .up:
            selection = max(0, selection - 1)
        case .down:
            selection = min(rows.count - 1, selection + 1)
        case .open:
            switch rows[min(selection, rows.count - 1)] {
            case .verifyPhone: return [LimitedAccess.verifyPhone]
            case .accountAccess: return [.push(HubScreen(isLoading: true))]
            case .gallery: return [.push(GalleryScreen())]
            case .keyboardCheck: return [.push(KeyboardCheckScreen())]
            case .logout: return [.showSheet(.confirmLogout)]
            }
        }
        return []
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isResending = false
        switch reply {
        case .resend(.success):
            resendAfter = context.now + VerifyRecoveryEmailScreen.resendCooldown
            return [.showToast(Self.resentText)]
        case .resend(.failure(.rateLimited(let retryAfter?, _, _))):
            resendAfter = context.now + TimeInterval(retryAfter)
        case .resend(.failure(let failure)):
            error = failure.message
        }
        return []
    }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        if let resendAfter, context.now >= resendAfter { self.resendAfter = nil }
        return []
    }

    private func drawReminder(_ email: String, into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.paragraph(
            "Verify your email: open the link we sent to \(email).", style: Style.accent.with(.bold), spacing: 0)
        if let error {
            canvas.paragraph(error, style: .danger)
        } else if isResending {
            canvas.paragraph("Sending…", style: .muted)
        } else if let resendAfter, context.now < resendAfter {
            let left = Banner.secondsLeft(until: resendAfter, now: context.now)
            canvas.paragraph("Resend in \(TextLayout.countdown(seconds: left))", style: .muted)
        } else {
            canvas.paragraph("No email? Press v to send it again.", style: .muted)
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Settings", subtitle: context.profile?.shownName.map { "Signed in as \($0)" })
        if LimitedAccess.applies(context) {
            canvas.paragraph(LimitedAccess.bannerText, style: Style.accent.with(.bold))
        }
        if let email = Self.unverifiedEmail(context) { drawReminder(email, into: &canvas, context) }
        // Onboarding stands at a step this app does not know: said here for as long as the server says so.
        if let note = Onboarding.unknownStepNote(context.profile) { canvas.paragraph(note, style: .muted) }
        for (index, kind) in Self.rows(context).enumerated() {
            var row = Self.listRow(kind, platform: context.options.platform)
            row.isSelected = index == selection
            // Log out stands apart from the rows that open screens, as at the bottom of seed 002's list.
            if kind == .logout { canvas.skip(1) }
            canvas.row(row)
        }
        if let url = context.options.backendURL {
            let admin = context.options.hasReferenceBackend ? " · admin API: \(url)/_admin" : ""
            canvas.paragraph("Backend: \(url)\(admin)", style: .muted)
        }
    }
}
