import AccessAPI
import Foundation
import TerminalKit

/// Gallery entries of the re-auth sub-screens (password, email link) and Contact support.
enum ReauthGallery {
    static var entries: [GalleryEntry] { password + emailLink + support }

    static let password: [GalleryEntry] = [
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
            var state = SampleData.state(
                [
                    ReauthPickerScreen(flow: .changePhone),
                    PasswordReauthScreen(
                        flow: .changePhone, error: "Too many attempts. Try again later.", lockedUntil: until),
                ], now: now)
            state.banner = .rateLimited(until: until)
            return state
        },
    ]

    static let emailLink: [GalleryEntry] = [
        GalleryEntry("check-email:countdown", "Link sent; resend counts down") {
            SampleData.state(
                [
                    ReauthPickerScreen(flow: .changePhone, selection: 1),
                    CheckEmailScreen(flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: $0.addingTimeInterval(-3)),
                ], now: $0)
        },
        GalleryEntry("check-email:resend-ready", "The countdown is over: Resend link") {
            SampleData.state(
                [
                    ReauthPickerScreen(flow: .changePhone, selection: 1),
                    CheckEmailScreen(
                        flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: $0.addingTimeInterval(-45), canResend: true
                    ),
                ], now: $0)
        },
        GalleryEntry("verifying-link:default", "Checking the link's token") {
            SampleData.state(
                [
                    ReauthPickerScreen(flow: .changePhone, selection: 1),
                    CheckEmailScreen(flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: $0.addingTimeInterval(-95)),
                    VerifyingLinkScreen(flow: .changePhone, token: "sample"),
                ], now: $0)
        },
        GalleryEntry("link-expired:default", "The link is over 30 minutes old or was used") {
            SampleData.state(
                [
                    ReauthPickerScreen(flow: .changePhone, selection: 1),
                    CheckEmailScreen(flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: $0.addingTimeInterval(-1900)),
                    LinkExpiredScreen(flow: .changePhone),
                ], now: $0)
        },
    ]

    static let support: [GalleryEntry] = [
        GalleryEntry("contact-support:default", "Open mail or copy the address") {
            SampleData.state(
                [
                    ReauthPickerScreen(flow: .changePhone, selection: 4),
                    ContactSupportScreen(userId: SampleData.everyMethod.userId),
                ], now: $0)
        },
        GalleryEntry("contact-support:copied", "The address was copied") { now in
            var state = SampleData.state(
                [
                    ReauthPickerScreen(flow: .changePhone, selection: 4),
                    ContactSupportScreen(userId: SampleData.everyMethod.userId, selection: .copy),
                ], now: now)
            state.toast = Toast("Copied \(state.options.brand.supportEmail) to clipboard", shownAt: now)
            return state
        },
    ]
}
