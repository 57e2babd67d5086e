import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Passkeys (issue 53), from the hub's row: the account's passkeys, each with its name, when it was created and
/// last used, the device it was made on, and a mark when the server turned it off as cloned; then "Add a
/// passkey", which makes one on this device through the "Create a passkey" sheet. Enter on a passkey offers Rename
/// and Remove (after Verify it's you, then a confirmation).
public struct PasskeysScreen: ScreenModel {
    /// The list as last loaded; nil until the first answer.
    public var passkeys: [Passkey]?
    public var selection: Int
    public var isLoading: Bool
    /// A ceremony or a removal is under way.
    public var isWorking: Bool
    /// What the last call or prompt ended with, inline (a refusal, the user's cancel).
    public var error: String?

    public init(
        passkeys: [Passkey]? = nil, selection: Int = 0, isLoading: Bool = true, isWorking: Bool = false,
        error: String? = nil
    ) {
        self.passkeys = passkeys
        self.selection = selection
        self.isLoading = isLoading
        self.isWorking = isWorking
        self.error = error
    }

    public var id: String { "passkeys" }
    public func showsSavedData(_ context: ScreenContext) -> Bool { passkeys != nil }

    public enum Intent: Sendable { case up, down, open, reload }
    public enum Reply: Equatable, Sendable {
        case loaded(Result<PasskeyList, APIError>)
        case options(Result<PasskeyCreationOptions, APIError>)
        case registered(Result<Passkey, APIError>)
        case removed(String, Result<Acknowledged, APIError>)
        /// The methods after a passkey came or went: the hub's and Verify it's you's count of passkeys.
        case methods(Result<AuthMethods, APIError>)
    }

    /// What comes back to the list from its sheets and from Verify it's you.
    public enum Choice: Equatable, Sendable {
        /// Esc on the "Create a passkey" sheet: nothing was sent.
        case cancelled
        /// Verify it's you is settled for removing this passkey: the confirmation sheet.
        case verifiedToRemove(id: String, name: String)
        /// Renamed on the screen pushed over the list: the list loads again.
        case renamed
    }

    /// The passkeys, then "Add a passkey".
    var rowCount: Int { (passkeys?.count ?? 0) + 1 }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        let reload = KeyBinding([.character("r")], "Reload", Intent.reload)
        guard passkeys != nil else { return [reload] }
        return [.move(up: .up, down: .down), .open("Open", .open), reload]
    }

    public func onAppear(_ context: ScreenContext) -> [Command] { [.call(Endpoint.ListPasskeys(), Reply.loaded)] }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .reload:
            isLoading = true
            return [.call(Endpoint.ListPasskeys(), Reply.loaded)]
        case .up:
            selection = max(0, selection - 1)
        case .down:
            selection = min(rowCount - 1, selection + 1)
        case .open:
            return open(context)
        }
        return []
    }

    private mutating func open(_ context: ScreenContext) -> [Command] {
        guard let passkeys, !isWorking else { return [] }
        if context.isOffline { return [.showToast(OnScreenMessage.offlineChangesOff.text)] }
        error = nil
        guard passkeys.indices.contains(selection) else {
            isWorking = true
            return [.call(Endpoint.PasskeyRegistrationOptions(), Reply.options)]
        }
        let passkey = passkeys[selection]
        return [
            .showSheet(
                .passkeyActions(
                    passkey, rename: [.push(RenamePasskeyScreen(passkey: passkey))],
                    remove: Self.removeCommands(passkey, context)))
        ]
    }

    /// What Remove does: the hard block when this passkey is the account's only way in (passkey.last_method; a
    /// flagged one no longer counts as one), the confirmation straight away when nothing but passkeys is left to
    /// verify with (the session suffices, by the rule app and backend share), else "Verify it's you" first.
    static func removeCommands(_ passkey: Passkey, _ context: ScreenContext) -> [Command] {
        let flow = RemovePasskeyFlow(id: passkey.id, name: passkey.name)
        guard let methods = context.methods else { return Reauth.verifyThen(flow, context) }
        if !passkey.flaggedAsCloned, methods.signInMethods.isOnly(.passkey), (methods.passkeys ?? 0) <= 1 {
            return [.showSheet(.cantRemovePasskey)]
        }
        if methods.sessionSuffices(for: .passkey) { return [.continueFlow(flow)] }
        return Reauth.verifyThen(flow, context)
    }

    /// "Create a passkey" over the list: Enter makes and registers it, Esc is the user's cancel.
    static func createSheet(_ options: PasskeyCreationOptions) -> Sheet {
        .createPasskey(
            options, approve: [.call(RegisterDevicePasskey(options: options), Reply.registered)],
            cancel: [.returnTo(PasskeysScreen.self, with: .cancelled)])
    }

    /// The confirmation after Verify it's you: its Remove sends the grant this app holds now.
    static func confirmRemoveSheet(id: String, name: String, _ context: ScreenContext) -> Sheet {
        let remove = Command.call(Endpoint.RemovePasskey(id: id, reauthToken: context.reauth?.reauthToken)) {
            Reply.removed(id, $0)
        }
        return .confirmRemovePasskey(name, then: [remove])
    }

    public mutating func receiveChoice(_ choice: Choice, _ context: ScreenContext) -> [Command] {
        switch choice {
        case .cancelled:
            isWorking = false
            error = PasskeyWording.cancelledText
            return []
        case .verifiedToRemove(let id, let name):
            return [.showSheet(Self.confirmRemoveSheet(id: id, name: name, context))]
        case .renamed:
            isLoading = true
            return [.call(Endpoint.ListPasskeys(), Reply.loaded)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isLoading = false
        switch reply {
        case .loaded(.success(let list)):
            passkeys = list.passkeys
            selection = min(selection, rowCount - 1)
            return []
        case .options(.success(let options)):
            // The sheet is the prompt; its Enter makes and registers the passkey, its Esc is the user's cancel.
            return [.showSheet(Self.createSheet(options))]
        case .registered(.success):
            isWorking = false
            error = nil
            isLoading = true
            return [
                .showToast(PasskeyWording.addedText), .call(Endpoint.ListPasskeys(), Reply.loaded),
                .call(LoadAuthMethods(), Reply.methods),
            ]
        case .removed(let id, .success):
            let name = passkeys?.first { $0.id == id }?.name ?? PasskeyRules.defaultName
            isWorking = false
            isLoading = true
            return [
                .showToast(PasskeyWording.removedText(name)), .call(Endpoint.ListPasskeys(), Reply.loaded),
                .call(LoadAuthMethods(), Reply.methods),
            ]
        case .removed(let id, .failure(.reauthRequired)):
            isWorking = false
            let name = passkeys?.first { $0.id == id }?.name ?? PasskeyRules.defaultName
            return [
                .push(ReauthPickerScreen(flow: AnyFlow(RemovePasskeyFlow(id: id, name: name)))),
                .showToast("Verify it's you again to remove it."),
            ]
        case .removed(_, .failure(.server(409, ErrorCode.lastMethod.rawValue, _))):
            isWorking = false
            return [.showSheet(.cantRemovePasskey)]
        case .removed(_, .failure(let failure)):
            isWorking = false
            error = PasskeyWording.refusal(failure, .register)
            isLoading = true
            return [.call(Endpoint.ListPasskeys(), Reply.loaded)]
        case .methods(.success(let methods)):
            return [.setMethods(methods)]
        case .methods(.failure):
            return []
        case .loaded(.failure(let failure)), .options(.failure(let failure)), .registered(.failure(let failure)):
            isWorking = false
            error = PasskeyWording.refusal(failure, .register)
            return []
        }
    }

    // MARK: - View

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Passkeys", subtitle: "Sign in with your fingerprint, face or screen lock")
        guard let passkeys else {
            if let error {
                canvas.paragraph(error, style: .danger)
            } else {
                canvas.skeleton(rows: 2, spacing: 0)
            }
            return
        }
        for (index, passkey) in passkeys.enumerated() {
            canvas.row(
                ListRow(
                    passkey.name, detail: Self.detail(passkey, now: context.now),
                    control: passkey.flaggedAsCloned ? .badge(Self.clonedBadge) : .chevron,
                    isSelected: index == selection))
        }
        if passkeys.isEmpty { canvas.paragraph(Self.noneText, style: .muted) }
        canvas.row(
            ListRow(
                "Add a passkey", detail: "Save one on this device", control: .pill("Add"),
                isSelected: selection == passkeys.count, isDisabled: context.isOffline))
        if isWorking { canvas.paragraph("Waiting for your passkey\u{2026}", style: .muted) }
        if let error { canvas.paragraph(error, style: .danger) }
    }

    static let noneText = "No passkeys yet."
    static let clonedBadge = "Turned off"

    /// "Terminal on host · created 3 days ago · last used 5 min ago", on the app's clock.
    static func detail(_ passkey: Passkey, now: Date) -> String {
        var parts: [String] = []
        if let device = passkey.deviceName { parts.append(device) }
        parts.append("created \(ago(passkey.createdAt, now: now))")
        parts.append(passkey.lastUsedAt.map { "last used \(ago($0, now: now))" } ?? "never used")
        return parts.joined(separator: " · ")
    }

    /// "just now" under a minute, then minutes, hours and days.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86400: return "\(seconds / 3600) h ago"
        default:
            let days = seconds / 86400
            return "\(days) day\(days == 1 ? "" : "s") ago"
        }
    }
}
