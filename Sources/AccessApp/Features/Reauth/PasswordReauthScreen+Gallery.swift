import AccessAPI
import Foundation
import TerminalKit

extension PasswordReauthScreen {
    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("password-reauth:empty", "Verify with the current password") {
                SampleData.state(
                    [ReauthPickerScreen(flow: .changePhone), PasswordReauthScreen(flow: .changePhone)], now: $0)
            },
            GalleryEntry("password-reauth:typed", "A password typed, shown masked") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone),
                        PasswordReauthScreen(flow: .changePhone, password: "hunter2!"),
                    ],
                    now: $0)
            },
            GalleryEntry("password-reauth:wrong", "The backend refused the password") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone),
                        PasswordReauthScreen(flow: .changePhone, error: "Password is incorrect. Try again."),
                    ], now: $0)
            },
            GalleryEntry("password-reauth:locked", "Too many wrong passwords: locked with a countdown") { now in
                let until = now.addingTimeInterval(14 * 60 + 27)
                let state = SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone),
                        PasswordReauthScreen(
                            flow: .changePhone, error: PasswordReauthScreen.lockedText, lockedUntil: until,
                            lockKind: .passwordAttempts),
                    ], now: now)
                return state
            },
        ]
    }
}
