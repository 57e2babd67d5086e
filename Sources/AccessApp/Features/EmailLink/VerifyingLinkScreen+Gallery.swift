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
            }
        ]
    }
}
