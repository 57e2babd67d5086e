import AccessAPI
import Foundation
import TerminalKit

/// The ten recovery codes, shown once (after set-up, or made anew): Copy puts them on the clipboard,
/// "I saved them" leaves. Leaving any other way (Esc, ←) asks first on a sheet, since the backend never
/// shows them again. Concealed in recordings and `play` prints: they sign in as well as the app does.
public struct RecoveryCodesScreen: ScreenModel {
    public enum Purpose: Equatable, Sendable {
        /// The first code just turned two-factor on.
        case setUp
        /// New codes replaced the old ones.
        case regenerated
    }

    public var purpose: Purpose
    /// Each "xxxxx-xxxxx"; masked in every dump of the state.
    public var codes: [Secret]
    /// Drawn as dots (recordings, `play`).
    public var isConcealed = false

    public init(purpose: Purpose, codes: [String]) {
        self.purpose = purpose
        self.codes = codes.map { Secret($0) }
    }

    public var id: String { "recovery-codes" }

    public func concealingSecrets() -> Self {
        var copy = self
        copy.isConcealed = true
        return copy
    }

    public enum Intent: Sendable { case saved, copy, leave }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            KeyBinding([.enter], "I saved them", .saved),
            KeyBinding([.character("c")], "Copy", .copy),
            // Back would lose the codes without a word: it asks first.
            KeyBinding([.escape], "Back", aliases: [.left], .leave),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .saved: return Self.done(purpose)
        case .copy:
            return [.run(.copy(codes.map(\.value).joined(separator: "\n"))), .showToast("Copied \(codes.count) codes")]
        case .leave: return [.showSheet(.leaveRecoveryCodes(purpose))]
        }
    }

    /// "I saved them": back where the person came from, told how things stand.
    static func done(_ purpose: Purpose) -> [Command] {
        switch purpose {
        case .setUp: return [.popTo(HubScreen.self), .showToast(TwoFactor.turnedOnText)]
        case .regenerated:
            return [
                .returnTo(TwoFactorScreen.self, with: TwoFactorScreen.Verified.codesSaved),
                .showToast("New recovery codes saved. The old ones no longer work."),
            ]
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Recovery codes")
        canvas.paragraph(
            "If you lose your phone, each of these codes signs you in once. Save them somewhere safe:"
                + " you won't see them again.")
        // Two columns of five: the ten fit an 80×24 terminal with the words around them.
        let shown = codes.map { isConcealed ? "•••••-•••••" : $0.value }
        let half = (shown.count + 1) / 2
        for row in 0..<half {
            let left = shown[row]
            let right = row + half < shown.count ? shown[row + half] : ""
            let line = right.isEmpty ? left : "\(left)     \(right)"
            canvas.centered(line, style: Style.accent.with(.bold), spacing: 0)
        }
        canvas.skip(1)
        canvas.button("I saved them", working: "", isReady: true, isFocused: true, isWorking: false, spacing: 0)
        canvas.centered("c copies them", style: .muted)
    }
}
