import AccessAPI
import Foundation
import TerminalKit

/// "Continue with…": phone, email, Apple, Google, or email & password. Being built (issue 14).
public struct SignInScreen: ScreenModel {
    public init() {}

    public var id: String { "sign-in" }

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([KeyBinding([.enter], "Email & password")])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard event == .key(.enter) else { return nil }
        return [.push(PasswordLoginScreen())]
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.centered("Sign in", style: .bold)
    }
}
