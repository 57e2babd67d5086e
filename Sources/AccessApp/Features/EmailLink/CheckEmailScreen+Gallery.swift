import AccessAPI
import Foundation
import TerminalKit

extension CheckEmail {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("check-email:countdown", "Link sent; resend counts down") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 1),
                        CheckEmailScreen(
                            flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: $0.addingTimeInterval(-3)),
                    ], now: $0)
            },
            GalleryEntry("check-email:resend-ready", "The countdown is over: Resend link") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 1),
                        CheckEmailScreen(
                            flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: $0.addingTimeInterval(-45),
                            canResend: true
                        ),
                    ], now: $0)
            },
            GalleryEntry("check-email:email-change", "The change's link went to the new address; help open") {
                SampleData.state(
                    [
                        EmailPasswordScreen(),
                        NewEmailScreen(
                            mode: .change(current: "jdoe@mail.com"), email: "new.email@gmail.com",
                            availability: .available("new.email@gmail.com")),
                        CheckEmailScreen(
                            link: AnyLinkPurpose(EmailChangeLink()), sentTo: "new.email@gmail.com",
                            sentAt: $0.addingTimeInterval(-3), showsHelp: true),
                    ], now: $0)
            },
            GalleryEntry("check-email:limited", "Resending was refused (429): the banner counts down") {
                SampleData.state(
                    [
                        EmailPasswordScreen(),
                        CheckEmailScreen(
                            link: AnyLinkPurpose(EmailChangeLink()), sentTo: "new.email@gmail.com",
                            sentAt: $0.addingTimeInterval(-60),
                            limit: RateLimit(until: $0.addingTimeInterval(810), kind: .resendWindow)),
                    ], now: $0)
            },
            GalleryEntry("check-email:start-again", "Resend was a 404, no change pending: Start the change again") {
                SampleData.state(
                    [
                        EmailPasswordScreen(),
                        CheckEmailScreen(
                            link: AnyLinkPurpose(EmailChangeLink(address: "new.email@gmail.com")),
                            sentTo: "new.email@gmail.com", sentAt: $0.addingTimeInterval(-2 * 86_400), canResend: true,
                            error: "There is no email change waiting. Start again.", startsAgain: true),
                    ], now: $0)
            },
        ]
    }
}
