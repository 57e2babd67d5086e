/// Email & password (seed 002, with seed 000's password rules): Log in and Register on one screen,
/// "Check your email to verify your account" after registering, and the emailed link (opened from the
/// outbox, pasted, or handed over by `accessdeck open-link`) that makes the account usable. "Forgot
/// password?" (Ctrl+F on Log in and on recovery's password screen) emails a one-shot 30-minute link that
/// opens "Set a new password"; the person then logs in with it.
enum PasswordLoginFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        PasswordLoginScreen.self, VerifyAccountScreen.self, ForgotPasswordScreen.self, ResetSentScreen.self,
        ResetPasswordScreen.self,
    ]
}
