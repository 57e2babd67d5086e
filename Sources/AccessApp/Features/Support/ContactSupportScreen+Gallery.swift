import AccessAPI
import Foundation
import TerminalKit

extension ContactSupportScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("contact-support:default", "Open mail or copy the address") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 4),
                        ContactSupportScreen(userId: SampleData.everyMethod.userId),
                    ], now: $0)
            },
            GalleryEntry("contact-support:mail-prepared", "Open mail chosen: the prepared mail shows too") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 4),
                        ContactSupportScreen(userId: SampleData.everyMethod.userId, showsMail: true),
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
}
