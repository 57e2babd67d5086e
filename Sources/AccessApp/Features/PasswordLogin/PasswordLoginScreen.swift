import AccessAPI
import Foundation
import TerminalKit

/// Log in | Register with an email and a password. Being built (issue 14).
public struct PasswordLoginScreen: ScreenModel {
    public init() {}

    public var id: String { "password-login" }

    public func keymap(_ context: ScreenContext) -> Keymap { Keymap([]) }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { nil }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.centered("Log in", style: .bold)
    }
}
