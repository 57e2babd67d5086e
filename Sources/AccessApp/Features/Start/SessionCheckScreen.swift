import AccessAPI
import Foundation
import TerminalKit

/// The start with a stored session (seed 002's splash): on screen at once, a spinner while
/// `GET /auth/me` answers, for at most 2 s (seed 002: the check takes under 2 s; `Call.within`).
/// Signed in: where the account's onboarding stands (seed 002's "app killed mid-registration" resumes
/// there), else Settings. Refused even after the client's one refresh: "Session expired, please login" on
/// the sign-in screen. No answer in time: in with the saved data under the offline banner, the session
/// kept, and the probe finds the backend when it is back; with nothing saved to show, the person
/// chooses: continue offline, or sign in again. Any other answer (an invalid response, a server
/// error) never counts as signed in: it is said, with Try again and Sign in again.
public struct SessionCheckScreen: ScreenModel {
    /// Seed 002: "Check session validity (< 2 seconds)".
    public static let patience: TimeInterval = 2

    /// No answer in time, and nothing saved: the choice is shown.
    public var unreachable: Bool
    /// The backend answered, but not who this is: what it said (seed 002's "Invalid response from
    /// server…" for an answer the contract does not allow).
    public var problem: String?
    /// The choice focused: the first (Continue offline, or Try again) or `signInAgain`.
    public var selection: Int

    public init(unreachable: Bool = false, problem: String? = nil, selection: Int = 0) {
        self.unreachable = unreachable
        self.problem = problem
        self.selection = selection
    }

    static let continueOffline = 0
    static let signInAgain = 1
    var choices: [String] { [problem == nil ? "Continue offline" : "Try again", "Sign in again"] }
    var isChoosing: Bool { unreachable || problem != nil }
    /// The check is under way: its answer decides the screen the app starts on.
    var isChecking: Bool { !isChoosing }

    public var id: String { "session-check" }
    public var needsClock: Bool { !isChoosing }

    public enum Intent: Sendable { case up, down, choose }
    public enum Reply: Equatable, Sendable { case me(Result<CurrentUser, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        guard isChoosing else { return [] }
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
            guard selection == Self.continueOffline else { return [.resetStack(AppRoutes.signedOut)] }
            return [.resetStack(problem == nil ? AnyScreen(SettingsScreen()) : AnyScreen(SessionCheckScreen()))]
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
        case .me(.failure(.sessionEnded(let reason))):
            return [.signOut, .resetStack(AppRoutes.sessionEnded(reason: reason))]
        case .me(.failure(.signedOutElsewhere)):
            return [.signOut, .resetStack(AppRoutes.signedOutElsewhere)]
        case .me(.failure(let failure)) where TwoFactor.isRequiredRefusal(failure):
            // The stored session passed its first factor only: the second step, before anything else.
            return [.resetStack(AppRoutes.secondFactor)]
        case .me(.failure(.offline)):
            // The banner is up (the ledger raised it); the saved data is what there is to show.
            guard context.methods == nil else { return [.resetStack(SettingsScreen())] }
            unreachable = true
            return []
        case .me(.failure(let failure)):
            // The backend answered but not who this is (a status the contract does not list, a body that
            // does not decode, a server error): not signed in on the strength of that.
            problem = failure.message
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        guard isChoosing else { return canvas.spinner("Checking your session…", at: context.now) }
        canvas.skip(max(0, canvas.remaining.height / 2 - 5))
        if let problem {
            canvas.centered("Couldn't check your session", style: Style.accent.with(.bold))
            canvas.centered(problem, style: .danger)
        } else {
            canvas.centered("Can't reach the server", style: Style.accent.with(.bold))
            canvas.centered(
                "Your session couldn't be checked, and nothing is saved on this device to show.", style: .muted,
                spacing: 0)
            canvas.centered("The app keeps trying; r tries now.", style: .muted)
        }
        for (index, label) in choices.enumerated() {
            canvas.button(
                label, working: label, isReady: true, isFocused: index == selection, isWorking: false, spacing: 0)
        }
    }
}
