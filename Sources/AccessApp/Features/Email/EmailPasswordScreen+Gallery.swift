import AccessAPI
import Foundation
import TerminalKit

extension EmailPasswordScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("email-password:default", "The sub-hub: email, change email, change password") {
                SampleData.state([EmailPasswordScreen()], now: $0)
            },
            GalleryEntry("email-password:password-selected", "Change password selected; changed 2 months ago") {
                SampleData.state([EmailPasswordScreen(selection: .changePassword)], now: $0)
            },
            GalleryEntry("email-password:offline", "Offline: cached values, changes off") {
                var state = SampleData.state([EmailPasswordScreen()], now: $0)
                state.isOffline = true
                return state
            },
        ]
    }
}
