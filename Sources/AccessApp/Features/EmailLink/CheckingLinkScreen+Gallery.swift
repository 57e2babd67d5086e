import AccessAPI
import Foundation
import TerminalKit

extension CheckingLinkScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("checking-link:default", "A handed-over link's token being asked about") {
                SampleData.state([SettingsScreen(), CheckingLinkScreen(token: "sample")], now: $0)
            },
            GalleryEntry("checking-link:revert", "A live revert link: asks before every session is signed out") {
                let screen = CheckingLinkScreen(token: "sample", confirming: .emailRevert)
                var state = SampleData.state([SettingsScreen(), screen], now: $0)
                state.overlay = .sheet(screen.confirmation(.emailRevert, state.context))
                return state
            },
            GalleryEntry("checking-link:unknown", "A token the backend never issued") {
                SampleData.state(
                    [SettingsScreen(), CheckingLinkScreen(token: "sample", error: "This link is not valid.")],
                    now: $0)
            },
        ]
    }
}
