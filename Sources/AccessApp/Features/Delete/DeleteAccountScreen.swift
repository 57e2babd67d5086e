import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Delete account · info (seed 001): what deleting removes, before anything destructive
/// happens. Informative, no retention tricks. Continuing asks the server what stands in the way
/// (`GET /me/delete-preflight`); blockers replace "Verify it's you" with the blocker screen.
public struct DeleteAccountScreen: ScreenModel {
    public enum Option: Equatable, Sendable { case delete, cancel }

    public var selection: Option
    /// The blocker check is under way.
    public var isChecking: Bool
    /// Why the check failed (offline, the server); Enter asks again.
    public var error: String?

    /// Cancel is chosen first: deleting takes a deliberate move (issue 28).
    public init(selection: Option = .cancel, isChecking: Bool = false, error: String? = nil) {
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

    /// Seed 000: "User can't re-register with same email for 7 days" (`DeletionRules.holdDuration`; RULES.md,
    /// delete.done: the phone and the Apple and Google accounts too).
    static let holdText =
        "For \(RuleText.duration(DeletionRules.holdDuration)) after deleting, your phone number, email, Apple and Google can't be used to sign up again."

    /// After the delete: the day the hold ends, from the answer, in the app's time zone.
    static func heldText(until: Date?, in zone: TimeZone) -> String {
        guard let until else { return holdText }
        return
            "Your phone number, email, Apple and Google can be used to sign up again from \(DeleteDates.slot(until, in: zone))."
    }

    public enum Intent: Sendable { case up, down, choose }
    public enum Reply: Equatable, Sendable { case preflight(Result<DeletePreflight, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        guard !isChecking else { return [] }
        return [.move(up: .up, down: .down), .open(selection == .delete ? "Delete account" : "Cancel", .choose)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard !isChecking else { return [] }
        switch intent {
        case .up:
            selection = .delete
        case .down:
            selection = .cancel
        case .choose:
            guard selection == .delete else { return [.pop] }
            isChecking = true
            error = nil
            return [.call(Endpoint.DeletePreflight(), Reply.preflight)]
        }
        return []
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isChecking = false
        switch reply {
        case .preflight(.success(let preflight)):
            return DeleteAccountFlow.afterPreflight(preflight, context)
        case .preflight(.failure(let failure)):
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
        canvas.paragraph(Self.holdText, style: .muted)
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
