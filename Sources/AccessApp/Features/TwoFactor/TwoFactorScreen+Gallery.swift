import AccessAPI
import Foundation
import TerminalKit

extension TwoFactorScreen {
    /// Every method set up, and two-factor on.
    static var methodsOn: AuthMethods {
        var methods = SampleData.everyMethod
        methods.twoFactorEnabled = true
        return methods
    }

    static func sample(now: Date, selection: Int = 0, codesLeft: Int = 10) -> TwoFactorScreen {
        TwoFactorScreen(
            status: TwoFactorStatus(
                enabled: true, enabledAt: now.addingTimeInterval(-12 * 86_400), recoveryCodesRemaining: codesLeft),
            selection: selection, isLoading: false)
    }

    public static var defaultGalleryState: String { "on" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("two-factor:loading", "First fetch: skeleton rows") {
                SampleData.state([TwoFactorScreen()], methods: methodsOn, now: $0)
            },
            GalleryEntry("two-factor:on", "On, ten recovery codes left") {
                SampleData.state([sample(now: $0)], methods: methodsOn, now: $0)
            },
            GalleryEntry("two-factor:few-codes", "On, two recovery codes left: said louder") {
                SampleData.state([sample(now: $0, codesLeft: 2)], methods: methodsOn, now: $0)
            },
            GalleryEntry("two-factor:off-elsewhere", "Turned off from another device: Set up offered") {
                let off = TwoFactorStatus(enabled: false, recoveryCodesRemaining: 0)
                return SampleData.state([TwoFactorScreen(status: off, isLoading: false)], now: $0)
            },
            GalleryEntry("two-factor:error", "The load failed") {
                let screen = TwoFactorScreen(isLoading: false, error: "Something went wrong. Please try again.")
                return SampleData.state([screen], methods: methodsOn, now: $0)
            },
        ]
    }
}
