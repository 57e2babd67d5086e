import AccessAPI
import Foundation
import TerminalKit

// SHELL — replaced by the issue 5 screen work in this session.
public struct ContactSupportScreen: ScreenModel {
    public var userId: String?

    public init(userId: String?) {
        self.userId = userId
    }

    public var id: String { "contact-support" }
    public func keymap(_ context: ScreenContext) -> Keymap { Keymap([]) }
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { nil }
    public func view(into canvas: inout Canvas, _ context: ScreenContext) { canvas.title("Contact support") }
}
