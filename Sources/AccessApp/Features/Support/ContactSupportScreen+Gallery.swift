import AccessAPI
import Foundation
import TerminalKit

extension ContactSupportScreen {
    /// A signed-in person stuck in "Verify it's you" after a refused code.
    static let sampleTicket = SupportTicket(
        who: .user(SampleData.everyMethod.userId), flow: ["settings", "hub", "reauth-picker"],
        lastError: .init(code: "code_incorrect", requestID: "5f3a-12"))

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("contact-support:default", "Open mail or copy the address") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 4),
                        ContactSupportScreen(ticket: sampleTicket),
                    ], now: $0)
            },
            GalleryEntry("contact-support:mail-prepared", "Open mail chosen: the prepared mail shows too") {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 4),
                        ContactSupportScreen(ticket: sampleTicket, showsMail: true),
                    ], now: $0)
            },
            GalleryEntry("contact-support:copied", "The address was copied") { now in
                var state = SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 4),
                        ContactSupportScreen(ticket: sampleTicket, selection: .copy),
                    ], now: now)
                state.toast = Toast("Copied \(state.options.brand.supportEmail) to clipboard", shownAt: now)
                return state
            },
        ]
    }
}
