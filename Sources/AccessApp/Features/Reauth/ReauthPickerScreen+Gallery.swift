import AccessAPI
import Foundation
import TerminalKit

extension ReauthPickerScreen {
    public static var defaultGalleryState: String { "change-phone" }

    /// The hub, then Phone number: the picker, before any call of its own.
    static let changePhoneRoad = Roads.hub.then([]) { _, hub in
        hub.pushing(ReauthPickerScreen(flow: .changePhone))
    }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry(
                "reauth-picker:change-phone", "Verify it's you before changing the phone", road: changePhoneRoad
            ) {
                SampleData.state([ReauthPickerScreen(flow: .changePhone)], now: $0)
            },
            GalleryEntry("reauth-picker:android", "The picker without Apple") {
                SampleData.state(
                    [ReauthPickerScreen(flow: .changePhone)], now: $0, options: AppOptions(platform: .android))
            },
            GalleryEntry("reauth-picker:sending", "Sending the email link") {
                SampleData.state([ReauthPickerScreen(flow: .changePhone, selection: 1, isWorking: true)], now: $0)
            },
            GalleryEntry("reauth-picker:social-sheet", "The simulated Apple confirmation") { now in
                var state = SampleData.state([ReauthPickerScreen(flow: .changePhone, selection: 2)], now: now)
                state.overlay = .sheet(.socialReauth(.apple))
                return state
            },
        ]
    }
}
