import AccessAPI
import Foundation
import TerminalKit

extension SettingsScreen {
    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("settings:default", "Settings root, first row selected") { AppState(now: $0) },
            GalleryEntry("settings:help", "The ? help over Settings") { now in
                var state = AppState(now: now)
                state.overlay = .help
                return state
            },
            GalleryEntry("settings:toast", "A toast over Settings") { now in
                var state = AppState(now: now)
                state.toast = Toast("Copied support@321.fit to clipboard", shownAt: now)
                return state
            },
        ]
    }
}
