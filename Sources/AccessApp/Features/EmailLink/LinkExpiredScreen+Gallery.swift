import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension LinkExpiredScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry(
                "link-expired:default",
                "The link is over \(RuleText.duration(LinkLifetimes.emailChange)) old or was used"
            ) {
                SampleData.state(
                    [
                        ReauthPickerScreen(flow: .changePhone, selection: 1),
                        CheckEmailScreen(
                            flow: .changePhone, sentTo: "jdoe@mail.com", sentAt: $0.addingTimeInterval(-1900)),
                        LinkExpiredScreen(flow: .changePhone),
                    ], now: $0)
            },
            GalleryEntry("link-expired:email-change", "An email change's link opened from the outbox, too late") {
                SampleData.state([LinkExpiredScreen(link: AnyLinkPurpose(EmailChangeLink()))], now: $0)
            },
            GalleryEntry("link-expired:start-again", "The email change is no longer pending (404): start it again") {
                let message = "There is no email change waiting. Start again."
                return SampleData.state(
                    [
                        LinkExpiredScreen(
                            link: AnyLinkPurpose(EmailChangeLink(address: "new.email@gmail.com")), error: message,
                            startsAgain: true)
                    ], now: $0)
            },
            GalleryEntry(
                "link-expired:registration",
                "A sign-up's verification link, over \(RuleText.duration(LinkLifetimes.registration)) old or used"
            ) {
                SampleData.state([LinkExpiredScreen(link: AnyLinkPurpose(RegistrationLink()))], now: $0)
            },
            GalleryEntry("link-expired:replaced", "A sign-up's link opened after a newer one was sent") {
                SampleData.state(
                    [
                        LinkExpiredScreen(
                            link: AnyLinkPurpose(RegistrationLink(email: "new.user@mail.com")), isReplaced: true)
                    ], now: $0)
            },
            GalleryEntry("link-expired:revert", "A used revert link: nothing to ask again, only support") {
                SampleData.state([LinkExpiredScreen(link: AnyLinkPurpose(RevertEmailLink()))], now: $0)
            },
        ]
    }
}
