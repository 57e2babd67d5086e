import AccessAPI
import Foundation
import TerminalKit

/// Logging out: alone on the stack while `POST /auth/logout` runs, a spinner turning; whatever the
/// answer, the session is forgotten here (seed 002: best effort) and the app goes to the sign-in screen.
public struct LoggedOutScreen: ScreenModel {
    public init() {}

    public var id: String { "logged-out" }
    public var needsClock: Bool { true }

    static let logoutTag = "logout"
    /// Said on the sign-in screen afterwards: only this device was signed out.
    public static let loggedOutText = "You're logged out. Your other devices stay signed in."

    public func keymap(_ context: ScreenContext) -> Keymap { Keymap([]) }

    public func onAppear(_ context: ScreenContext) -> [Command] {
        [.request(Logout(), tag: Self.logoutTag)]
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { nil }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    ) -> [Command] {
        guard tag == Self.logoutTag else { return [] }
        return [.signOut, .resetStack(SignInScreen(notice: Self.loggedOutText))]
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let spinner = Spinner("Logging out…", tick: Int(context.now.timeIntervalSince1970))
        let glyphs = canvas.glyphs
        canvas.draw(height: canvas.remaining.height) { grid, rect in
            spinner.render(into: &grid, in: rect, glyphs: glyphs)
        }
    }
}
