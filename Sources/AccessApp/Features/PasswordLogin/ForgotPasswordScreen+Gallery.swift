import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension ForgotPasswordScreen {
    /// Reached from Log in: Esc goes back to it.
    static func sample(_ screens: [any ScreenModel], now: Date, options: AppOptions = .init()) -> AppState {
        var state = AppState(root: SignInScreen(), now: now, options: options)
        state.stack =
            [AnyScreen(SignInScreen.selecting(.password, state.context)), AnyScreen(PasswordLoginScreen())]
            + screens.map { AnyScreen($0) }
        return state
    }
}

extension ForgotPassword {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("forgot-password:default", "The address from Log in, ready to send") {
                ForgotPasswordScreen.sample([ForgotPasswordScreen(email: "jdoe@mail.com")], now: $0)
            },
            GalleryEntry("forgot-password:empty", "Nothing typed yet") {
                ForgotPasswordScreen.sample([ForgotPasswordScreen()], now: $0)
            },
            GalleryEntry("forgot-password:invalid", "Not an address: said before any call") {
                ForgotPasswordScreen.sample(
                    [ForgotPasswordScreen(email: "jdoe@mail", error: ForgotPasswordScreen.invalidText)], now: $0)
            },
            GalleryEntry("forgot-password:working", "Sending the link") {
                ForgotPasswordScreen.sample([ForgotPasswordScreen(email: "jdoe@mail.com", isWorking: true)], now: $0)
            },
            GalleryEntry(
                "forgot-password:cooldown",
                "Asked again within \(RuleText.duration(SendLimits.cooldown, .short)): Resend in, counted down"
            ) { now in
                ForgotPasswordScreen.sample(
                    [
                        ForgotPasswordScreen(
                            email: "jdoe@mail.com",
                            limit: RateLimit(target: "jdoe@mail.com", until: now + 24, kind: .cooldown))
                    ], now: now)
            },
            GalleryEntry("forgot-password:daily-cap", "Five today: the daily limit, counted down") { now in
                ForgotPasswordScreen.sample(
                    [
                        ForgotPasswordScreen(
                            email: "jdoe@mail.com",
                            limit: RateLimit(target: "jdoe@mail.com", until: now + 5400, kind: .dailyCap))
                    ], now: now)
            },
            GalleryEntry("forgot-password:offline", "No connection: what was typed stays") {
                ForgotPasswordScreen.sample(
                    [ForgotPasswordScreen(email: "jdoe@mail.com", error: ForgotPasswordScreen.offlineText)], now: $0)
            },
        ]
    }
}
