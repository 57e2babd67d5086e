import Foundation
import TerminalKit

extension LoggedOutScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("logged-out:working", "Log out confirmed: the request is under way") {
                AppState(root: LoggedOutScreen(), now: $0)
            }
        ]
    }
}
