import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension SetPasswordScreen {
    static func sample(_ screen: SetPasswordScreen, now: Date) -> AppState {
        SampleData.state([EmailPasswordScreen(selection: .changePassword), screen], now: now)
    }

    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("set-password:empty", "Nothing typed: the rules wait") {
                sample(SetPasswordScreen(), now: $0)
            },
            GalleryEntry("set-password:typing", "The first rule checked as you type") {
                sample(SetPasswordScreen(newPassword: "horse"), now: $0)
            },
            GalleryEntry("set-password:mismatch", "Same length, different: Passwords don't match.") {
                sample(
                    SetPasswordScreen(
                        newPassword: "correct-horse-42", confirmation: "correct-horse-43", focus: .confirm,
                        checked: true, mismatch: true), now: $0)
            },
            GalleryEntry("set-password:unchanged", "The server: the same as the current password") {
                sample(
                    SetPasswordScreen(
                        newPassword: "correct-horse-42", confirmation: "correct-horse-42", focus: .cta, checked: true,
                        newPasswordError: SetPasswordScreen.unchangedText), now: $0)
            },
            GalleryEntry(
                "set-password:reauth-expired",
                "The \(RuleText.duration(ReauthRules.window, .compound)) window closed before submitting"
            ) {
                sample(
                    SetPasswordScreen(
                        newPassword: "correct-horse-43", confirmation: "correct-horse-43", focus: .cta, checked: true,
                        error: NewEmailScreen.expiredReauthText), now: $0)
            },
            GalleryEntry("set-password:ready", "Both fields agree and the rules pass") {
                sample(
                    SetPasswordScreen(
                        newPassword: "correct-horse-43", confirmation: "correct-horse-43", focus: .cta, checked: true),
                    now: $0)
            },
        ]
    }
}
