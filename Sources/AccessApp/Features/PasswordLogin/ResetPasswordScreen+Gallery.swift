import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension ResetPasswordScreen {
    static func sample(
        newPassword: String = "", confirmation: String = "", showsPassword: Bool = false, focus: Focus = .new,
        checked: Bool = false, isWorking: Bool = false, error: String? = nil, newPasswordError: String? = nil
    ) -> ResetPasswordScreen {
        ResetPasswordScreen(
            email: "jdoe@mail.com", token: "sample", newPassword: newPassword, confirmation: confirmation,
            showsPassword: showsPassword, focus: focus, checked: checked, isWorking: isWorking, error: error,
            newPasswordError: newPasswordError)
    }

    /// Opened from the outbox, signed out: Log in below.
    static func sampleState(_ screen: any ScreenModel, now: Date) -> AppState {
        ForgotPasswordScreen.sample([screen], now: now)
    }

    static var link: AnyLinkPurpose { AnyLinkPurpose(ForgotPasswordLink(email: "jdoe@mail.com")) }

    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("reset-password:empty", "The link checked: a new password for its address") {
                sampleState(sample(), now: $0)
            },
            GalleryEntry("reset-password:typing", "The first rule checked as you type") {
                sampleState(sample(newPassword: "horse"), now: $0)
            },
            GalleryEntry("reset-password:similar", "Too like the address: the server's 422 under the field") {
                sampleState(
                    sample(
                        newPassword: "jdoe@mail.com", confirmation: "jdoe@mail.com", focus: .new, checked: true,
                        newPasswordError: PasswordRule.tooSimilar.message), now: $0)
            },
            GalleryEntry("reset-password:shown", "Ctrl+R shows both fields") {
                sampleState(
                    sample(
                        newPassword: "violet-harbor-77", confirmation: "violet-harbor-77", showsPassword: true,
                        focus: .confirm, checked: true), now: $0)
            },
            GalleryEntry("reset-password:mismatch", "Typed as far and different: Passwords don't match.") {
                sampleState(
                    sample(
                        newPassword: "violet-harbor-77", confirmation: "violet-harbor-78", focus: .confirm,
                        checked: true), now: $0)
            },
            GalleryEntry("reset-password:weak", "The server's 422: the broken rule under the field") {
                sampleState(
                    sample(
                        newPassword: "password1", confirmation: "password1", checked: true,
                        newPasswordError: PasswordRule.tooCommon.message), now: $0)
            },
            GalleryEntry("reset-password:ready", "Both fields agree and the rules pass") {
                sampleState(
                    sample(
                        newPassword: "violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta, checked: true),
                    now: $0)
            },
            GalleryEntry("reset-password:working", "Updating") {
                sampleState(
                    sample(
                        newPassword: "violet-harbor-77", confirmation: "violet-harbor-77", focus: .cta, checked: true,
                        isWorking: true), now: $0)
            },
            GalleryEntry("reset-password:checking", "The opened link being checked") {
                sampleState(VerifyingLinkScreen(link: link, token: "sample"), now: $0)
            },
            GalleryEntry("reset-password:expired", "A used or old reset link: ask for a new one") {
                sampleState(LinkExpiredScreen(link: link), now: $0)
            },
            GalleryEntry("reset-password:superseded", "A newer reset link was sent") {
                sampleState(LinkExpiredScreen(link: link, isReplaced: true), now: $0)
            },
            GalleryEntry("reset-password:done", "Done: Log in with the new password") {
                var state = AppState(root: SignInScreen(), now: $0)
                state.stack = [
                    AnyScreen(SignInScreen.selecting(.password, state.context)),
                    AnyScreen(
                        PasswordLoginScreen(
                            email: "jdoe@mail.com", focus: .password, notice: ResetPasswordScreen.doneText)),
                ]
                return state
            },
        ]
    }
}
