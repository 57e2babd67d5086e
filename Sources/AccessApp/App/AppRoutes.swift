import AccessAPI
import AccessCore
import Foundation

/// Where the app lands when who is signed in changes, in one place: a sign-in, a stored session's
/// check, the QA sign-in or a scenario switch, a session the backend refused for good, and a link
/// opened from outside the screen waiting for one.
public enum AppRoutes {
    /// A sign-in that just succeeded: the onboarding step the account stands at (seed 003), else
    /// Settings. A new account whose backend sent no profile starts at the profile step; an existing one
    /// without a profile is taken as onboarded.
    static func signedIn(_ signedIn: SignedIn) -> AnyScreen {
        // Two-factor (issue 31): the first factor passed, the second is asked before anything else; its
        // answer is a sign-in of its own, which lands here again.
        if signedIn.secondFactorRequired == true { return secondFactor }
        if signedIn.profile == nil, signedIn.isNewUser { return AnyScreen(ProfileScreen()) }
        return Self.signedIn(profile: signedIn.profile)
    }

    /// An account already signed in (a stored session's check, the QA sign-in, a scenario switch):
    /// where its onboarding stands, else Settings.
    static func signedIn(profile: Profile?) -> AnyScreen { AnyScreen(Onboarding.screen(for: profile)) }

    /// A session that passed its first factor only (a sign-in, or a stored one the backend refuses with
    /// 403 second_factor_required): the authenticator's code, alone on the stack.
    static var secondFactor: AnyScreen { AnyScreen(AuthenticatorCodeScreen()) }

    /// Nobody is signed in (a scenario that starts signed out, a fresh start).
    static var signedOut: AnyScreen { AnyScreen(WelcomeScreen()) }

    /// The backend refused the session for good (a refused refresh): sign in again (seed 002).
    static var sessionExpired: AnyScreen { AnyScreen(SignInScreen(notice: SignInScreen.sessionExpiredText)) }

    /// The backend refused the session for good and said why it ended (issue 49 item 3): sign in again, told why
    /// in words ("You were signed out because your password was changed on another device.").
    static func sessionEnded(reason: String) -> AnyScreen {
        AnyScreen(SignInScreen(notice: SessionEndReason.signedOutText(reason)))
    }

    /// Another device signed this session out (issue 30): sign in again, told why.
    static var signedOutElsewhere: AnyScreen { AnyScreen(SignInScreen(notice: signedOutElsewhereText)) }

    public static let signedOutElsewhereText = "You were signed out from another device. Sign in again."

    /// Logged out here (seed 002): the sign-in screen says only this device was signed out.
    static var loggedOut: AnyScreen { AnyScreen(SignInScreen(notice: loggedOutText)) }

    public static let loggedOutText = "You're logged out. Your other devices stay signed in."

    /// The roots a signed-out app stands on: a refused session found there needs no sign-in screen on top,
    /// and the QA sign-in may take the app in from there.
    static let signedOutRoots: [ScreenType] = [
        ScreenType(WelcomeScreen.self), ScreenType(SignInScreen.self),
        ScreenType(SessionCheckScreen.self), ScreenType(AccountDeletedScreen.self),
    ]

    static func isSignedOut(_ root: AnyScreen) -> Bool { signedOutRoots.contains { root.is($0) } }

    /// Onboarding's steps: signed in, alone on the stack, and not done yet, so the way out is to log out.
    static func isOnboarding(_ root: AnyScreen) -> Bool {
        OnboardingFeature.screens.contains { root.is(ScreenType($0)) }
    }

    /// A link pasted or handed over (`accessdeck open-link`) that the screen on top does not wait for:
    /// its own kind says where it goes; nil when nothing takes it.
    static func link(pasted text: String, _ context: ScreenContext) -> [Command]? {
        LinkRouter.open(pasted: text, context)
    }

    /// A link chosen in the outbox that the screen on top does not take.
    static func link(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        LinkRouter.open(message, context)
    }
}
