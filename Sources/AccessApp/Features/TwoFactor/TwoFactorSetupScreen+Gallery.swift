import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension TwoFactorSetupScreen {
    /// A made-up secret (no account's), with the URI the backend would send for it.
    static func samplePending(now: Date) -> Pending {
        let totp = TOTP(base32: "IFRWGZLTONCGKY3LEBSGK3LPEBVWK6JB")!
        return Pending(
            secret: totp.base32, uri: totp.uri(issuer: TwoFactorLimits.issuer, account: "nino@example.com"),
            expiresAt: now.addingTimeInterval(9 * 60 + 41))
    }

    static func sample(now: Date, stage: Stage = .scan, showsKey: Bool = false) -> TwoFactorSetupScreen {
        TwoFactorSetupScreen(pending: samplePending(now: now), stage: stage, showsKey: showsKey, isWorking: false)
    }

    public static var defaultGalleryState: String { "scan" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("two-factor-setup:loading", "Making the key") {
                SampleData.state([TwoFactorSetupScreen()], now: $0)
            },
            GalleryEntry("two-factor-setup:scan", "The QR code (the key instead when the terminal is too short)") {
                SampleData.state([sample(now: $0)], now: $0)
            },
            GalleryEntry("two-factor-setup:key", "Can't scan? The key in groups of four") {
                SampleData.state([sample(now: $0, showsKey: true)], now: $0)
            },
            GalleryEntry("two-factor-setup:confirm", "The app's first code") {
                SampleData.state([sample(now: $0, stage: .confirm)], now: $0)
            },
            GalleryEntry("two-factor-setup:wrong", "A wrong first code: attempts left") { now in
                var screen = sample(now: now, stage: .confirm)
                screen.entry = CodeEntry(digits: "123456", refusal: .incorrect(attemptsRemaining: 4))
                screen.entry.otp.startsOver = true
                return SampleData.state([screen], now: now)
            },
            GalleryEntry("two-factor-setup:expired", "The pending set-up timed out: start again") { now in
                var screen = sample(now: now, stage: .confirm)
                screen.pending?.expiresAt = now.addingTimeInterval(-1)
                return SampleData.state([screen], now: now)
            },
        ]
    }
}
