import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension AuthenticatorCodeScreen {
    /// The second step of a sign-in stands alone: nothing under it to go back to.
    static func signInState(_ screen: AuthenticatorCodeScreen, now: Date) -> AppState {
        AppState(root: screen, now: now)
    }

    public static var defaultGalleryState: String { "sign-in" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("authenticator-code:sign-in", "The second step of a sign-in: the app's code") {
                signInState(AuthenticatorCodeScreen(), now: $0)
            },
            GalleryEntry("authenticator-code:wrong", "A wrong code: kept in view, attempts left") {
                signInState(
                    AuthenticatorCodeScreen(digits: "123456", refusal: .incorrect(attemptsRemaining: 3)).startingOver,
                    now: $0)
            },
            GalleryEntry(
                "authenticator-code:locked",
                "\(RuleText.count(TwoFactorLimits.maxWrongCodes).sentenceCased) wrong codes: locked, counted down"
            ) { now in
                signInState(
                    AuthenticatorCodeScreen(
                        refusal: .message(TwoFactor.lockedText),
                        lock: RateLimit(until: now + 14 * 60 + 32, kind: .twoFactorAttempts)),
                    now: now)
            },
            GalleryEntry("authenticator-code:reauth", "Verify it's you with the authenticator app") {
                SampleData.state(
                    [
                        TwoFactorScreen.sample(now: $0), ReauthPickerScreen(flow: .turnOffTwoFactor),
                        AuthenticatorCodeScreen(purpose: .reauth(.turnOffTwoFactor)),
                    ], methods: TwoFactorScreen.methodsOn, now: $0)
            },
        ]
    }

    /// The refused code kept in view, as after a wrong answer.
    var startingOver: AuthenticatorCodeScreen {
        var copy = self
        copy.entry.otp.startsOver = true
        return copy
    }
}
