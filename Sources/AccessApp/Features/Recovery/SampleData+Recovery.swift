import AccessAPI
import Foundation

extension SampleData {
    /// The athlete who lost their phone, signed in again by the recovery email.
    static let recoveryEmail = "lost.phone@mail.com"
    static var limitedProfile: Profile {
        Profile(
            username: "athlete", onboardingStep: .init(.complete), email: recoveryEmail, emailVerified: true,
            access: .init(.limited))
    }

    /// Settings (and `screens` over it) in a session with limited access.
    static func limitedState(_ screens: [any ScreenModel], now: Date) -> AppState {
        var state = AppState(now: now)
        state.stack += screens.map { AnyScreen($0) }
        state.methods = everyMethod
        state.methodsFetchedAt = now
        state.profile = limitedProfile
        return state
    }

    /// Signed out, "Can't access your account?" chosen on the sign-in screen, `screens` over it.
    static func recovering(_ screens: [any ScreenModel], now: Date, options: AppOptions = .init()) -> AppState {
        var state = AppState(root: SignInScreen(), now: now, options: options)
        state.stack = [AnyScreen(SignInScreen.selecting(.recover, state.context))] + screens.map { AnyScreen($0) }
        return state
    }
}
