import AccessAPI
import Foundation
import TerminalKit

extension GalleryScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("gallery:default", "This list of screens") { now in
                var state = AppState(root: SettingsScreen(selection: 1), now: now)
                state.stack.append(AnyScreen(GalleryScreen()))
                return state
            }
        ]
    }
}
