import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Two-factor authentication, when it is on (the hub's row opens it): since when, how many recovery
/// codes are left, and the two changes, both after "Verify it's you": new recovery codes (the old ones
/// die) and turning it off (a sheet first). Each change is sent from here once verification is settled.
public struct TwoFactorScreen: ScreenModel {
    /// The last answer; nil until the first.
    public var status: TwoFactorStatus?
    public var selection: Int
    public var isLoading: Bool
    public var error: String?

    public init(
        status: TwoFactorStatus? = nil, selection: Int = 0, isLoading: Bool = true, error: String? = nil
    ) {
        self.status = status
        self.selection = selection
        self.isLoading = isLoading
        self.error = error
    }

    public var id: String { "two-factor" }

    /// "Verify it's you" is settled for one of the changes (or, `codesSaved`, the new codes were seen).
    public enum Verified: Equatable, Sendable { case regenerate, turnOff, codesSaved }

    enum Row: Equatable { case regenerate, turnOff, setUp }

    var rows: [Row] {
        guard let status else { return [] }
        return status.enabled ? [.regenerate, .turnOff] : [.setUp]
    }

    public enum Intent: Sendable { case up, down, open, reload }
    public enum Reply: Equatable, Sendable {
        case loaded(Result<TwoFactorStatus, APIError>)
        case regenerated(Result<RecoveryCodes, APIError>)
        case turnedOff(Result<Acknowledged, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        let reload = KeyBinding([.character("r")], "Reload", Intent.reload)
        guard !rows.isEmpty else { return [reload] }
        return [.move(up: .up, down: .down), .open("Open", .open), reload]
    }

    public func onAppear(_ context: ScreenContext) -> [Command] { [.call(Endpoint.GetTwoFactor(), Reply.loaded)] }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .reload:
            isLoading = true
            return [.call(Endpoint.GetTwoFactor(), Reply.loaded)]
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(max(0, rows.count - 1), selection + 1)
        case .open: return open(context)
        }
        return []
    }

    private func open(_ context: ScreenContext) -> [Command] {
        guard rows.indices.contains(selection), !isLoading else { return [] }
        if context.isOffline { return [.showToast(OnScreenMessage.offlineChangesOff.text)] }
        if LimitedAccess.applies(context) { return [.showSheet(.limitedAccess)] }
        switch rows[selection] {
        case .regenerate: return [.showSheet(.regenerateRecoveryCodes(context))]
        case .turnOff: return [.showSheet(.turnOffTwoFactor(context))]
        case .setUp: return Reauth.verifyThen(TwoFactorSetupFlow(), context)
        }
    }

    public mutating func receiveChoice(_ verified: Verified, _ context: ScreenContext) -> [Command] {
        isLoading = true
        error = nil
        let token = context.reauth?.reauthToken
        switch verified {
        case .regenerate: return [.call(Endpoint.RegenerateRecoveryCodes(reauthToken: token), Reply.regenerated)]
        case .turnOff: return [.call(Endpoint.DisableTwoFactor(reauthToken: token), Reply.turnedOff)]
        case .codesSaved: return [.call(Endpoint.GetTwoFactor(), Reply.loaded)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isLoading = false
        switch reply {
        case .loaded(.success(let loaded)):
            error = nil
            status = loaded
            selection = min(selection, max(0, rows.count - 1))
            return TwoFactor.methods(context.methods, on: loaded.enabled)
        case .regenerated(.success(let codes)):
            isLoading = true
            return [.push(RecoveryCodesScreen(purpose: .regenerated, codes: codes.recoveryCodes))]
        case .turnedOff(.success):
            return TwoFactor.methods(context.methods, on: false) + [
                .popTo(HubScreen.self), .showToast(TwoFactor.turnedOffText),
            ]
        case .turnedOff(.failure(.server(409, _, _))):
            // Off already (from another device): the screen says how things stand now.
            isLoading = true
            return [.call(Endpoint.GetTwoFactor(), Reply.loaded)]
        case .loaded(.failure(let failure)), .regenerated(.failure(let failure)), .turnedOff(.failure(let failure)):
            error = failure.message
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title(TwoFactor.title, subtitle: TwoFactor.subtitle)
        guard let status else {
            if let error {
                canvas.paragraph(error, style: .danger)
            } else {
                canvas.skeleton(rows: 2, spacing: 0)
            }
            return
        }
        if status.enabled {
            let since = status.enabledAt.map { " since \(DeleteDates.slot($0, in: context.options.timeZone))" } ?? ""
            canvas.paragraph("On\(since). Signing in asks for a code from your authenticator app.")
            let left = status.recoveryCodesRemaining
            canvas.paragraph(
                "\(left) recovery \(left == 1 ? "code" : "codes") left.",
                style: left <= 2 ? Style.accent.with(.bold) : .muted)
        } else {
            canvas.paragraph("Off. Signing in asks only for your sign-in method.")
        }
        let off = context.isOffline
        for (index, row) in rows.enumerated() {
            switch row {
            case .regenerate:
                canvas.row(
                    ListRow(
                        "Regenerate recovery codes", detail: "The old ones stop working", control: .chevron,
                        isSelected: index == selection, isDisabled: off))
            case .turnOff:
                canvas.row(
                    ListRow(
                        "Turn off", control: .none, isSelected: index == selection, isDisabled: off,
                        isDestructive: true))
            case .setUp:
                canvas.row(
                    ListRow(
                        "Set up", detail: "Authenticator app", control: .chevron, isSelected: index == selection,
                        isDisabled: off))
            }
        }
        if isLoading { canvas.paragraph("Working…", style: .muted) }
        if let error { canvas.paragraph(error, style: .danger) }
    }
}
