import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension RecoveryCodeSignInScreen {
    static func state(_ screen: RecoveryCodeSignInScreen, now: Date) -> AppState {
        var state = AppState(root: AuthenticatorCodeScreen(), now: now)
        state.stack.append(AnyScreen(screen))
        return state
    }

    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("recovery-code:empty", "Use a recovery code: the field") {
                state(RecoveryCodeSignInScreen(), now: $0)
            },
            GalleryEntry("recovery-code:typed", "A code typed") {
                state(RecoveryCodeSignInScreen(code: "k7m2q-x4bnp"), now: $0)
            },
            GalleryEntry("recovery-code:wrong", "A wrong or spent code") {
                let error = "\(RecoveryCodeSignInScreen.incorrectText) \(CodeEntry.attemptsLeft(2))."
                return state(RecoveryCodeSignInScreen(code: "k7m2q-x4bnq", error: error), now: $0)
            },
            GalleryEntry(
                "recovery-code:locked",
                "\(RuleText.count(TwoFactorLimits.maxWrongCodes).sentenceCased) wrong codes: locked, counted down"
            ) { now in
                state(
                    RecoveryCodeSignInScreen(
                        error: TwoFactor.lockedText, lockedUntil: now.addingTimeInterval(9 * 60 + 5),
                        lockKind: .twoFactorAttempts), now: now)
            },
        ]
    }
}
