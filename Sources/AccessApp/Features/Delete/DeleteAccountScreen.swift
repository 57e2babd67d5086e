import AccessAPI
import Foundation
import TerminalKit

/// Delete account · info (seed 001): what deleting removes, before anything destructive
/// happens. Informative, no retention tricks. Continuing asks the server what stands in the way
/// (`GET /me/delete-preflight`); blockers replace "Verify it's you" with the blocker screen.
public struct DeleteAccountScreen: ScreenModel {
    public enum Choice: Equatable, Sendable { case delete, cancel }

    public var selection: Choice
    /// The blocker check is under way.
    public var isChecking: Bool
    /// Why the check failed (offline, the server); Enter asks again.
    public var error: String?

    public init(selection: Choice = .delete, isChecking: Bool = false, error: String? = nil) {
        self.selection = selection
        self.isChecking = isChecking
        self.error = error
    }

    public var id: String { "delete-account" }

    static let removed = [
        "Your profile, photo, and personal info",
        "Your training history and reviews",
        "Your messages and chat history",
        "Your saved payment methods",
    ]
    static let checkingText = "Checking your account…"

    public func keymap(_ context: ScreenContext) -> Keymap {
        guard !isChecking else { return Keymap([]) }
        return Keymap([.move, .open(selection == .delete ? "Delete account" : "Cancel")])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event, !isChecking else { return nil }
        switch key {
        case .up, .character("k"):
            selection = .delete
            return []
        case .down, .character("j"):
            selection = .cancel
            return []
        case .enter, .right:
            guard selection == .delete else { return [.pop] }
            isChecking = true
            error = nil
            return [.request(LoadDeletePreflight())]
        default:
            return nil
        }
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    ) -> [Command] {
        isChecking = false
        switch result {
        case .success:
            guard let preflight = result.reply(DeletePreflight.self) else { return [] }
            return DeleteAccountFlow.afterPreflight(preflight, context)
        case .failure(let failure):
            error = failure.message
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Delete account")
        canvas.paragraph("Delete your account?", style: .bold)
        canvas.paragraph("This can't be undone. We'll permanently remove the following:")
        for line in Self.removed {
            canvas.paragraph("\(canvas.glyphs.bullet) \(line)", spacing: 0)
        }
        canvas.skip(1)
        canvas.paragraph(
            "Some data may be retained for legal or financial reasons. See our Privacy Policy.", style: .muted)
        if let error { canvas.paragraph(error, style: .danger) }
        if isChecking {
            canvas.centered(Self.checkingText, style: .muted, spacing: 0)
            canvas.centered("Cancel", style: Style.muted.with(.dim))
            return
        }
        button("Delete account", style: Style.danger.with(.bold), isFocused: selection == .delete, &canvas)
        button("Cancel", style: .plain, isFocused: selection == .cancel, &canvas)
    }

    private func button(_ label: String, style: Style, isFocused: Bool, _ canvas: inout Canvas) {
        var shown = style
        if isFocused { shown.attributes.formUnion([.reverse, .bold]) }
        canvas.centered(isFocused ? "\(canvas.glyphs.selected) [ \(label) ]" : "[ \(label) ]", style: shown, spacing: 0)
    }
}
