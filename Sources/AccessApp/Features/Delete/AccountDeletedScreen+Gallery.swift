import AccessCore
import Foundation
import TerminalKit

extension AccountDeletedScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("account-deleted:default", "Deleted and signed out: only quitting is left") {
                AppState(root: AccountDeletedScreen(heldUntil: $0 + DeletionRules.holdDuration), now: $0)
            }
        ]
    }
}
