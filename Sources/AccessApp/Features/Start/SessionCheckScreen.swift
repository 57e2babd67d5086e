import AccessAPI
import Foundation
import TerminalKit

/// The start with a stored session (seed 002's splash): on screen at once, a spinner while
/// `GET /auth/me` answers. Signed in: where the account's onboarding stands (seed 002's "app killed
/// mid-registration" resumes there), else Settings. Refused even after the client's one
/// refresh: "Session expired, please login" on the sign-in screen. No answer: in with the cached data
/// under the offline banner, the session kept.
public struct SessionCheckScreen: ScreenModel {
    public init() {}

    public var id: String { "session-check" }
    public var needsClock: Bool { true }

    public enum Reply: Equatable, Sendable { case me(Result<CurrentUser, APIError>) }

    public func onAppear(_ context: ScreenContext) -> [Command] { [.call(CheckSession(), Reply.me)] }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .me(.success(let me)):
            return [
                .setMethods(me.authMethods), .setProfile(me.profile),
                .resetStack(AppRoutes.signedIn(profile: me.profile)),
            ]
        case .me(.failure(.signedOut)):
            return [.signOut, .resetStack(AppRoutes.sessionExpired)]
        case .me(.failure(.offline)):
            return [.resetStack(SettingsScreen())]
        case .me(.failure(let failure)):
            // The backend answered but could not say who this is: in with what was cached, and why.
            return [.resetStack(SettingsScreen()), .showToast("Couldn't check your session: \(failure.message)")]
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let spinner = Spinner("Checking your session…", tick: Int(context.now.timeIntervalSince1970))
        let glyphs = canvas.glyphs
        canvas.draw(height: canvas.remaining.height) { grid, rect in
            spinner.render(into: &grid, in: rect, glyphs: glyphs)
        }
    }
}
