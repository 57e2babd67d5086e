import AccessAPI
import Foundation
import TerminalKit

extension VerifyingLinkScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("verifying-link:default", "Checking the link's token") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 1),
                        CheckEmailScreen(
                            flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: $0.addingTimeInterval(-95)),
                        VerifyingLinkScreen(flow: .changePhone, token: "sample"),
                    ], now: $0)
            },
            GalleryEntry("verifying-link:email-change", "The new address's link being checked") {
                SampleData.state(
                    [
                        EmailPasswordScreen(),
                        VerifyingLinkScreen(link: AnyLinkPurpose(EmailChangeLink()), token: "sample"),
                    ], now: $0)
            },
            GalleryEntry("verifying-link:taken", "Another account took the address while the link waited") {
                SampleData.state(
                    [
                        EmailPasswordScreen(),
                        VerifyingLinkScreen(
                            link: AnyLinkPurpose(EmailChangeLink()), token: "sample",
                            error: "This email is already in use by another account."),
                    ], now: $0)
            },
        ]
    }
}
