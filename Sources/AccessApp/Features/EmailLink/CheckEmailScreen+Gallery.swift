import AccessAPI
import Foundation
import TerminalKit

extension CheckEmailScreen {
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
        ]
    }
}
