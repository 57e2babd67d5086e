import AccessAPI
import Foundation
import TerminalKit

extension PreviewScreen {
    public static var defaultGalleryState: String { "hub-default" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("preview:hub-default", "A gallery state shown full screen, opened from the gallery") { now in
                var state = AppState(root: SettingsScreen(selection: 1), now: now)
                state.stack.append(AnyScreen(GalleryScreen(selection: 4)))
                state.stack.append(AnyScreen(PreviewScreen(entryID: "hub:default")))
                return state
            }
        ]
    }
}
