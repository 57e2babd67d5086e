import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Rename a passkey: one field, 1 to `PasskeyRules.maxNameLength` characters; the server's 422 shows under it.
public struct RenamePasskeyScreen: ScreenModel {
    public var passkey: Passkey
    public var field: TextField
    public var isWorking: Bool

    public init(passkey: Passkey, name: String? = nil, isWorking: Bool = false, error: String? = nil) {
        self.passkey = passkey
        field = TextField(
            label: "Passkey name", value: name ?? passkey.name, error: error, isFocused: true,
            maxLength: PasskeyRules.maxNameLength)
        self.isWorking = isWorking
    }

    public var id: String { "rename-passkey" }
    public var takesText: Bool { true }
    public var error: String? { field.error }

    static let emptyText = "Enter a name for this passkey."

    public enum Intent: Sendable { case save }
    public enum Reply: Equatable, Sendable { case renamed(Result<Passkey, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        isWorking ? [] : [KeyBinding([.enter], "Save", .save)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        guard !isWorking else { return [] }
        let name = field.value.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            field.error = Self.emptyText
            return []
        }
        if context.isOffline { return [.showToast(OnScreenMessage.offlineChangesOff.text)] }
        field.error = nil
        isWorking = true
        return [.call(Endpoint.RenamePasskey(id: passkey.id, name: name), Reply.renamed)]
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking else { return event.isTextEditing ? [] : nil }
        return field.handle(event) ? [] : nil
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .renamed(.success):
            return [.returnTo(PasskeysScreen.self, with: .renamed), .showToast(PasskeyWording.renamedText)]
        case .renamed(.failure(.invalid(_, let message, _))):
            field.error = message
        case .renamed(.failure(let failure)):
            field.error = PasskeyWording.refusal(failure, .register)
        }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Rename passkey")
        canvas.paragraph("Up to \(PasskeyRules.maxNameLength) characters. Only you see this name.")
        canvas.field(field)
        if isWorking { canvas.paragraph("Saving\u{2026}", style: .muted) }
    }
}
