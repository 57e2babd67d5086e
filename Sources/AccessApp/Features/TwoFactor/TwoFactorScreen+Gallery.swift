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

    /// The hub, then its Two-factor authentication row: `GET /me/two-factor`'s answer, where two-factor is on
    /// (`--scenario two-factor`); a scenario where it is off says so.
    static let onRoad = Roads.hub.then(["GET /me/two-factor"]) { api, hub in
        let status = try await Endpoint.GetTwoFactor().perform(api)
        guard status.enabled else {
            throw APIError.server(
                status: 0, code: "two_factor_off",
                message: "two-factor is off for this scenario's user (two-factor has it on).")
        }
        return hub.pushing(TwoFactorScreen(status: status, isLoading: false))
    }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("two-factor:loading", "First fetch: skeleton rows") {
                SampleData.state([TwoFactorScreen()], methods: methodsOn, now: $0)
            },
            GalleryEntry("two-factor:on", "On, ten recovery codes left", road: onRoad) {
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
