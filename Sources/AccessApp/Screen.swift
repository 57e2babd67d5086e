import TerminalKit

/// One entry of the navigation stack: which screen, with its own state.
public enum Screen: Equatable, Sendable {
    case settings(SettingsScreen.State)
    case gallery(GalleryScreen.State)
    case preview(PreviewScreen.State)

    /// The stable id used by `accessdeck screens` and `render`.
    public var id: String {
        switch self {
        case .settings: return "settings"
        case .gallery: return "gallery"
        case .preview: return "preview"
        }
    }
}

/// What a screen's reducer asks of the app around it.
public enum Command: Equatable, Sendable {
    case push(Screen)
    case pop
    case showToast(String)
    case run(Effect)
}
