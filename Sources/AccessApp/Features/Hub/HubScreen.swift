import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Account access: every sign-in method and the account's lifecycle, entered from Settings
/// (seed 000). Skeleton rows on the first fetch; offline, the cached values under a banner
/// with every write disabled.
public struct HubScreen: ScreenModel {
    public var selection: Int
    /// A fetch is under way.
    public var isLoading: Bool
    /// Why the last fetch failed, when there is nothing cached to show instead.
    public var loadError: String?

    public init(selection: Int = 0, isLoading: Bool = false, loadError: String? = nil) {
        self.selection = selection
        self.isLoading = isLoading
        self.loadError = loadError
    }

    public var id: String { "hub" }
    /// The methods from the last answer (or the cache) are the hub's rows.
    public func showsSavedData(_ context: ScreenContext) -> Bool { context.methods != nil }

    enum RowKind: Equatable {
        case phone, emailPassword, apple, google, passkeys, sessions, twoFactor, delete

        var isWrite: Bool { self != .sessions }
        /// Opening the row writes nothing (the Email & password sub-hub only shows, and keeps its own
        /// changes off while offline; Active sessions shows its list read only), so it opens offline too.
        func opensOffline(_ methods: AuthMethods) -> Bool {
            self == .sessions || self == .emailPassword && methods.email != nil
        }
        var group: Int {
            switch self {
            case .phone, .emailPassword, .apple, .google, .passkeys: return 0
            case .sessions, .twoFactor: return 1
            case .delete: return 2
            }
        }
    }

    struct Row: Equatable, Sendable {
        var kind: RowKind
        var title: String
        var detail: String
        var control: ListRow.Control
    }

    static func rows(_ methods: AuthMethods, platform: AppOptions.Platform) -> [Row] {
        methodRows(methods, platform: platform) + laterRows(methods)
    }

    /// The sign-in methods: what the backend's answer fills in.
    static func methodRows(_ methods: AuthMethods, platform: AppOptions.Platform) -> [Row] {
        var rows = [
            Row(
                kind: .phone, title: "Phone number",
                detail: methods.phone.map { PhoneNumberRules.display(e164: $0) } ?? "Not set up",
                control: methods.phone == nil ? .pill("Add") : .pencil),
            Row(
                kind: .emailPassword, title: "Email & password", detail: methods.email ?? "Not set up",
                control: methods.email == nil ? .pill("Add") : .chevron),
        ]
        if platform == .ios {
            rows.append(social(.apple, "Apple", linked: methods.appleLinked))
        }
        rows.append(social(.google, "Google", linked: methods.googleLinked))
        let passkeys = methods.passkeys ?? 0
        rows.append(
            Row(
                kind: .passkeys, title: "Passkeys",
                detail: passkeys == 0 ? "Not set up" : passkeys == 1 ? "1 passkey" : "\(passkeys) passkeys",
                control: passkeys == 0 ? .pill("Add") : .chevron))
        return rows
    }

    /// The rows below the methods: drawn while the methods load too (two-factor without its On/Off until
    /// they arrive), so only the skeleton's rows change when they do.
    static func laterRows(_ methods: AuthMethods?) -> [Row] {
        [
            Row(
                kind: .sessions, title: "Active sessions", detail: "Manage where you're signed in",
                control: .chevron),
            Row(
                kind: .twoFactor, title: TwoFactor.title, detail: TwoFactor.subtitle,
                control: methods.map { TwoFactor.isOn($0) ? .badge("On") : .badge("Off") } ?? .none),
            Row(kind: .delete, title: "Delete account", detail: "Permanently remove your data", control: .chevron),
        ]
    }

    /// How many method rows the platform shows (Android has no Apple row): the skeleton's count.
    static func methodRowCount(_ platform: AppOptions.Platform) -> Int { platform == .ios ? 5 : 4 }

    private static func social(_ kind: RowKind, _ name: String, linked: Bool) -> Row {
        Row(
            kind: kind, title: name, detail: linked ? "Connected" : "Not connected",
            control: linked ? .chevron : .pill("Connect"))
    }

    public enum Intent: Sendable { case up, down, open, reload }
    public enum Reply: Equatable, Sendable { case methods(Result<AuthMethods, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        let reload = KeyBinding([.character("r")], "Reload", Intent.reload)
        // Nothing to move through or open until the methods have loaded.
        guard context.methods != nil else { return [reload] }
        return [.move(up: .up, down: .down), .open("Open", .open), reload]
    }

    public func onAppear(_ context: ScreenContext) -> [Command] {
        [.call(LoadAuthMethods(), Reply.methods)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        if intent == .reload {
            isLoading = true
            return [.call(LoadAuthMethods(), Reply.methods)]
        }
        guard let methods = context.methods else { return [] }
        let rows = Self.rows(methods, platform: context.options.platform)
        switch intent {
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(rows.count - 1, selection + 1)
        case .open: return open(rows[min(selection, rows.count - 1)], methods, context)
        case .reload: break
        }
        return []
    }

    private func open(_ row: Row, _ methods: AuthMethods, _ context: ScreenContext) -> [Command] {
        if context.isOffline, !row.kind.opensOffline(methods) {
            return [.showToast(OnScreenMessage.offlineChangesOff.text)]
        }
        // Seeing where you're signed in changes nothing: open with limited access too.
        if row.kind == .sessions { return [.push(ActiveSessionsScreen())] }
        if LimitedAccess.applies(context) { return [.showSheet(.limitedAccess)] }
        switch row.kind {
        case .phone:
            return PhoneFlow.begin(methods.phone == nil ? .addPhone : .changePhone, context)
        case .emailPassword:
            // Adding a method needs no verification (seed 000), as for the phone.
            return [methods.email == nil ? .push(NewEmailScreen(mode: .add)) : .push(EmailPasswordScreen())]
        case .apple, .google:
            return Providers.open(row.kind == .apple ? .apple : .google, context)
        case .twoFactor:
            // On: the screen that manages it; off: set up, after "Verify it's you".
            guard TwoFactor.isOn(methods) else { return Reauth.verifyThen(TwoFactorSetupFlow(), context) }
            return [.push(TwoFactorScreen())]
        case .passkeys:
            return [.push(PasskeysScreen())]
        case .delete:
            return [.push(DeleteAccountScreen())]
        case .sessions:
            return []
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isLoading = false
        switch reply {
        case .methods(.success(let methods)):
            loadError = nil
            return [.setMethods(methods)]
        case .methods(.failure(.offline)):
            loadError = context.methods == nil ? OnScreenMessage.offlineNothingSaved.text : nil
        case .methods(.failure(let error)):
            loadError = error.message
        }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let titleRow = canvas.cursorY
        canvas.title("Account access")
        // The rows stay as they were until the answer: without a sign a slow `r` looked like nothing happened.
        // On the title's row, which no status strip or scroll can push off the screen.
        if isLoading {
            canvas.grid.putRight(
                Self.refreshingText, endingAt: canvas.fullArea.maxX - 2, row: titleRow, style: .accent)
        }
        guard let methods = context.methods else {
            if let loadError {
                canvas.paragraph(loadError, style: .danger)
                return
            }
            canvas.skeleton(rows: Self.methodRowCount(context.options.platform), spacing: 0)
            Self.draw(Self.laterRows(nil), selection: nil, into: &canvas) { _ in true }
            canvas.skip(1)
            canvas.paragraph(Self.footnote, style: .muted)
            return
        }
        let rows = Self.rows(methods, platform: context.options.platform)
        Self.draw(rows, selection: selection, into: &canvas) {
            context.isOffline && $0.kind.isWrite && !$0.kind.opensOffline(methods)
        }
        canvas.skip(1)
        // A failed reload first: with the Passkeys row (issue 53) the rows fill 80×24, and what went wrong must
        // stay on screen where the footnote below may not.
        if let loadError { canvas.paragraph(loadError, style: .danger) }
        if let note = Self.otherPlatformNote(methods, platform: context.options.platform) {
            canvas.paragraph(note, style: .muted)
        }
        if LimitedAccess.applies(context) {
            canvas.paragraph(LimitedAccess.bannerText, style: Style.accent.with(.bold))
        } else {
            canvas.paragraph(Self.footnote, style: .muted)
        }
    }

    /// Android hides Apple's row (seed 000), but an account may still sign in with Apple: said, with nothing
    /// offered to change it here, so an Apple-only account does not look as if it had no way in (issue 48).
    static func otherPlatformNote(_ methods: AuthMethods, platform: AppOptions.Platform) -> String? {
        platform == .android && methods.appleLinked ? appleElsewhereText : nil
    }
    static let appleElsewhereText = "Apple is linked too: manage it on an iPhone or iPad."

    static let refreshingText = "Refreshing\u{2026}"
    static let footnote = "Changes to your sign-in methods require verification for security."

    /// Sign-in methods, then Active sessions and two-factor, then Delete: groups a blank line apart, so 80×24 holds it all.
    private static func draw(
        _ rows: [Row], selection: Int?, into canvas: inout Canvas, isDisabled: (Row) -> Bool
    ) {
        for (index, row) in rows.enumerated() {
            let endsGroup = index + 1 < rows.count && rows[index + 1].kind.group != row.kind.group
            canvas.row(
                ListRow(
                    row.title, detail: row.detail, control: row.control, isSelected: index == selection,
                    isDisabled: isDisabled(row)),
                spacing: endsGroup ? 1 : 0)
        }
    }
}
