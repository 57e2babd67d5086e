import AccessAPI
import Foundation
import TerminalKit

/// Logging out: alone on the stack while `POST /auth/logout` runs, a spinner turning; whatever the
/// answer, the session is forgotten here (seed 002: best effort) and the app goes to the sign-in screen.
public struct LoggedOutScreen: ScreenModel {
    public init() {}

    public var id: String { "logged-out" }
    public var needsClock: Bool { true }

    /// Said on the sign-in screen afterwards: only this device was signed out.
    public static let loggedOutText = "You're logged out. Your other devices stay signed in."

    public enum Reply: Equatable, Sendable { case logout(Result<Acknowledged, APIError>) }

    public func onAppear(_ context: ScreenContext) -> [Command] {
        [.call(Logout(), Reply.logout)]
    }

    /// Whatever the answer, signed out here (best effort).
    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        [.signOut, .resetStack(SignInScreen(notice: Self.loggedOutText))]
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let spinner = Spinner("Logging out…", tick: Int(context.now.timeIntervalSince1970))
        let glyphs = canvas.glyphs
        canvas.draw(height: canvas.remaining.height) { grid, rect in
            spinner.render(into: &grid, in: rect, glyphs: glyphs)
        }
    }
}
