import AccessAPI
import Foundation
import TerminalKit

// SHELL — replaced by the issue 5 screen work in this session.
public struct PasswordReauthScreen: ScreenModel {
    public var flow: AccountFlow

    public init(flow: AccountFlow) {
        self.flow = flow
    }

    public var id: String { "password-reauth" }
    public func keymap(_ context: ScreenContext) -> Keymap { Keymap([]) }
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { nil }
    public func view(into canvas: inout Canvas, _ context: ScreenContext) { canvas.title("Enter your password") }
}
