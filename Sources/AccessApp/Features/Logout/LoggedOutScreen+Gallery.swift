import Foundation
import TerminalKit

extension LoggedOutScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("logged-out:working", "Log out confirmed: the request is under way") {
                AppState(root: LoggedOutScreen(isWorking: true), now: $0)
            },
            GalleryEntry("logged-out:default", "Logged out here: only quitting is left") {
                AppState(root: LoggedOutScreen(), now: $0)
            },
        ]
    }
}
