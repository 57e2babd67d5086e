import AccessAPI
import Foundation
import TerminalKit

extension KeyboardCheckScreen {
    public static var defaultGalleryState: String { "keys" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("keyboard-check:keys", "Keyboard check after a few keys and a paste") { now in
                var state = AppState(root: SettingsScreen(selection: 2), now: now)
                state.stack.append(AnyScreen(KeyboardCheckScreen(events: ["paste 482915", "key Ctrl+A", "key ↓"])))
                return state
            }
        ]
    }
}
