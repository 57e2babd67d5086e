import Foundation
import TerminalKit

extension SessionCheckScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("session-check:checking", "A stored session is being checked") {
                AppState(root: SessionCheckScreen(), now: $0)
            }
        ]
    }
}
