import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension RecoveryCodesScreen {
    /// Made-up codes in the backend's shape ("xxxxx-xxxxx", a-z and 2-7): no account's.
    static let sampleCodes = [
        "k7m2q-x4bnp", "t3wz5-qe6hd", "p2rj7-c5vna", "m6yd3-uk4fs", "b5nq2-zr7gt",
        "h4xe6-wm3jc", "s7gp5-dn2ky", "a3vt6-lq5ex", "w2kc7-fy4mo", "e6pz3-tb5ri",
    ]

    static func sample(_ purpose: Purpose) -> RecoveryCodesScreen {
        RecoveryCodesScreen(purpose: purpose, codes: sampleCodes)
    }

    public static var defaultGalleryState: String { "set-up" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry(
                "recovery-codes:set-up",
                "Two-factor just turned on: \(RuleText.count(TwoFactorLimits.recoveryCodeCount)) codes, shown once"
            ) {
                SampleData.state([sample(.setUp)], methods: TwoFactorScreen.methodsOn, now: $0)
            },
            GalleryEntry("recovery-codes:regenerated", "New codes made: the old ones died") {
                SampleData.state(
                    [TwoFactorScreen.sample(now: $0), sample(.regenerated)], methods: TwoFactorScreen.methodsOn,
                    now: $0)
            },
        ]
    }
}
