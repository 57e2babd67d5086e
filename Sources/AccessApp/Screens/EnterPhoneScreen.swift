import AccessAPI
import Foundation
import TerminalKit

// SHELL — replaced by the issue 5 screen work in this session.
public struct EnterPhoneScreen: ScreenModel {
    public var flow: AccountFlow
    public var current: String?

    public init(flow: AccountFlow, current: String?) {
        self.flow = flow
        self.current = current
    }

    public var id: String { "enter-phone" }
    public func keymap(_ context: ScreenContext) -> Keymap { Keymap([]) }
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { nil }
    public func view(into canvas: inout Canvas, _ context: ScreenContext) { canvas.title("New phone number") }
}
