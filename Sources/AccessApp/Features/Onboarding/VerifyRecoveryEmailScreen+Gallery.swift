import AccessAPI
import Foundation
import TerminalKit

extension VerifyRecoveryEmailScreen {
    public static var defaultGalleryState: String { "sent" }

    public static var gallery: [GalleryEntry] {
        func entry(
            _ name: String, _ title: String, _ screen: @escaping @Sendable (Date) -> VerifyRecoveryEmailScreen
        ) -> GalleryEntry {
            GalleryEntry("verify-recovery-email:\(name)", title) { now in
                SampleData.onboarding(
                    screen(now), profile: SampleData.profile(.verifyEmail, email: "jdoe@mail.com"), now: now)
            }
        }
        return [
            entry("sent", "Step 4: the link just went out, Resend counts down") { now in
                VerifyRecoveryEmailScreen(email: "jdoe@mail.com", resendAfter: now + 27)
            },
            entry("resend", "The countdown is over: Resend is on") { _ in
                VerifyRecoveryEmailScreen(email: "jdoe@mail.com")
            },
            entry("resending", "Resend pressed: sending") { _ in
                VerifyRecoveryEmailScreen(email: "jdoe@mail.com", work: .resending)
            },
            entry("not-a-link", "Something pasted that is not the link") { _ in
                VerifyRecoveryEmailScreen(email: "jdoe@mail.com", error: CheckEmailScreen.notALinkText)
            },
            entry("continuing", "Continue without verifying: on its way") { _ in
                VerifyRecoveryEmailScreen(email: "jdoe@mail.com", work: .continuing)
            },
            entry("verified", "The link was opened: verified, on to the next step") { _ in
                VerifyRecoveryEmailScreen(email: "jdoe@mail.com", work: .loadingProfile, verified: true)
            },
        ]
    }
}
