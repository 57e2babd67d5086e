import AccessAPI
import Foundation
import TerminalKit

extension RecoveryRequest {
    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("recovery-request:empty", "Can't access your account? Nothing typed") {
                SampleData.recovering([RecoveryRequestScreen()], now: $0)
            },
            GalleryEntry("recovery-request:invalid", "Not an address: said before any call, text kept") {
                SampleData.recovering(
                    [
                        RecoveryRequestScreen(email: "lost.phone@mail", error: RecoveryRequestScreen.invalidText)
                    ], now: $0)
            },
            GalleryEntry("recovery-request:sending", "The link is being requested") {
                SampleData.recovering(
                    [
                        RecoveryRequestScreen(email: SampleData.recoveryEmail, isWorking: true)
                    ], now: $0)
            },
            GalleryEntry("recovery-request:rate-limited", "Too many recoveries for this address: a countdown") { now in
                SampleData.recovering(
                    [
                        RecoveryRequestScreen(
                            email: SampleData.recoveryEmail,
                            limit: RateLimit(target: SampleData.recoveryEmail, until: now + 27))
                    ], now: now)
            },
            GalleryEntry("recovery-request:offline", "No connection: said so, the address kept") {
                SampleData.recovering(
                    [
                        RecoveryRequestScreen(
                            email: SampleData.recoveryEmail, error: RecoveryRequestScreen.offlineText)
                    ], now: $0)
            },
        ]
    }
}
