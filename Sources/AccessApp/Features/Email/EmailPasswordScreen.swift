import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The Email & password sub-hub (seed 001): pushed from the hub's one row, it splits into the two
/// sensitive flows. Offline it shows the cached values with both changes off.
public struct EmailPasswordScreen: ScreenModel {
    public enum Row: Int, CaseIterable, Sendable { case changeEmail, changePassword }

    public var selection: Row

    public init(selection: Row = .changeEmail) { self.selection = selection }

    public var id: String { "email-password" }
    /// The email and the password's age come from the saved methods.
    public func showsSavedData(_ context: ScreenContext) -> Bool { context.methods != nil }

    public enum Intent: Sendable { case up, down, open }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [.move(up: .up, down: .down), .open("Open", .open)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .up: selection = .changeEmail
        case .down: selection = .changePassword
        case .open:
            if context.isOffline { return [.showToast(OnScreenMessage.offlineChangesOff.text)] }
            return EmailFlow.begin(selection == .changeEmail ? .changeEmail : .changePassword, context)
        }
        return []
    }

    func passwordDetail(_ context: ScreenContext) -> String {
        guard let methods = context.methods, methods.hasPassword else { return "No password yet" }
        guard let changed = methods.passwordChangedAt else { return "Set a new password" }
        return EmailFlow.lastChanged(changed, now: context.now)
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Email & password")
        canvas.paragraph("Email", style: .muted, spacing: 0)
        canvas.paragraph(context.methods?.email ?? "Not set up", style: .bold)
        canvas.row(
            ListRow(
                "Change email", detail: "Verify + replace current email", control: .chevron,
                isSelected: selection == .changeEmail, isDisabled: context.isOffline))
        canvas.row(
            ListRow(
                "Change password", detail: passwordDetail(context), control: .chevron,
                isSelected: selection == .changePassword, isDisabled: context.isOffline))
        canvas.paragraph("A verification link will be sent for any change.", style: .muted)
    }
}
