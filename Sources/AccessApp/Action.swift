import TerminalKit

/// Everything that can happen to the app: input, replies, timers.
public enum Action: Equatable, Sendable {
    /// A key, a paste or a resize from the terminal.
    case input(InputEvent)
    case settings(SettingsScreen.Action)
    case gallery(GalleryScreen.Action)
    case toastExpired
}
