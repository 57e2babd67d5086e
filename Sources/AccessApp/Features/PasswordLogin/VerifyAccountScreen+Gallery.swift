import Foundation
import TerminalKit

extension VerifyAccountScreen {
    public static var defaultGalleryState: String { "registered" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("verify-account:registered", "Registered: check your email for the link") {
                AppState(root: VerifyAccountScreen(email: "fresh@mail.com", justRegistered: true), now: $0)
            },
            GalleryEntry("verify-account:unverified", "Logged in before opening the link: verify first") {
                AppState(root: VerifyAccountScreen(email: "pending@mail.com", justRegistered: false), now: $0)
            },
            GalleryEntry("verify-account:resend-wait", "Resent too soon: Resend counts down") { now in
                AppState(
                    root: VerifyAccountScreen(
                        email: "fresh@mail.com", justRegistered: true, resendAfter: now.addingTimeInterval(24)),
                    now: now)
            },
        ]
    }
}
