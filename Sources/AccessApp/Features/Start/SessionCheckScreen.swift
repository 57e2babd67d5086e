import AccessAPI
import Foundation
import TerminalKit

/// The start with a stored session (seed 002's splash): on screen at once, a spinner while
/// `GET /auth/me` answers, for at most 2 s (seed 002: the check takes under 2 s; `Call.within`).
/// Signed in: where the account's onboarding stands (seed 002's "app killed mid-registration" resumes
/// there), else Settings. Refused even after the client's one refresh: "Session expired, please login" on
/// the sign-in screen. No answer in time: in with the saved data under the offline banner, the session
/// kept, and the probe finds the backend when it is back; with nothing saved to show, the person
/// chooses: continue offline, or sign in again.
public struct SessionCheckScreen: ScreenModel {
    /// Seed 002: "Check session validity (< 2 seconds)".
    public static let patience: TimeInterval = 2

    /// No answer in time, and nothing saved: the choice is shown.
    public var unreachable: Bool
    /// The choice focused: `continueOffline` or `signInAgain`.
    public var selection: Int

    public init(unreachable: Bool = false, selection: Int = 0) {
        self.unreachable = unreachable
        self.selection = selection
    }

    static let continueOffline = 0
    static let signInAgain = 1
    static let choices = ["Continue offline", "Sign in again"]

    public var id: String { "session-check" }
    public var needsClock: Bool { !unreachable }

    public enum Intent: Sendable { case up, down, choose }
    public enum Reply: Equatable, Sendable { case me(Result<CurrentUser, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        guard unreachable else { return [] }
        return [.move(up: .up, down: .down), .open("Choose", .choose)]
    }

    public func onAppear(_ context: ScreenContext) -> [Command] {
        [.call(CheckSession(), Reply.me, within: Self.patience)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .up: selection = Self.continueOffline
        case .down: selection = Self.signInAgain
        case .choose:
            // Signing in again replaces the kept session only once a sign-in succeeds.
            return [.resetStack(selection == Self.continueOffline ? AnyScreen(SettingsScreen()) : AppRoutes.signedOut)]
        }
        return []
    }

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
            // The banner is up (the ledger raised it); the saved data is what there is to show.
            guard context.methods == nil else { return [.resetStack(SettingsScreen())] }
            unreachable = true
            return []
        case .me(.failure(let failure)):
            // The backend answered but could not say who this is: in with what was cached, and why.
            return [.resetStack(SettingsScreen()), .showToast("Couldn't check your session: \(failure.message)")]
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        guard unreachable else {
            let spinner = Spinner("Checking your session…", tick: Int(context.now.timeIntervalSince1970))
            let glyphs = canvas.glyphs
            canvas.draw(height: canvas.remaining.height) { grid, rect in
                spinner.render(into: &grid, in: rect, glyphs: glyphs)
            }
            return
        }
        canvas.skip(max(0, canvas.remaining.height / 2 - 5))
        canvas.centered("Can't reach the server", style: Style.accent.with(.bold))
        canvas.centered(
            "Your session couldn't be checked, and nothing is saved on this device to show.", style: .muted,
            spacing: 0)
        canvas.centered("The app keeps trying; r tries now.", style: .muted)
        for (index, label) in Self.choices.enumerated() {
            canvas.button(
                label, working: label, isReady: true, isFocused: index == selection, isWorking: false, spacing: 0)
        }
    }
}
