import Foundation

/// A named screen state: what `accessdeck screens` lists and `render` prints.
public struct GalleryEntry: Sendable {
    /// "SCREEN:STATE", e.g. "settings:help".
    public let id: String
    public let summary: String
    public let makeState: @Sendable (Date) -> AppState

    public var screen: Substring { id.split(separator: ":", maxSplits: 1).first ?? "" }
}

public enum Gallery {
    public static let entries: [GalleryEntry] = [
        GalleryEntry(id: "settings:default", summary: "Settings root, first row selected") { now in
            AppState(now: now)
        },
        GalleryEntry(id: "settings:gallery-selected", summary: "Settings root, Screen gallery selected") { now in
            AppState(stack: [.settings(.init(selection: 1))], now: now)
        },
        GalleryEntry(id: "settings:help", summary: "The ? help over Settings") { now in
            var state = AppState(now: now)
            state.overlay = .help
            return state
        },
        GalleryEntry(id: "settings:toast", summary: "A toast over Settings") { now in
            var state = AppState(now: now)
            state.toast = Toast(message: "Copied support@321.fit to clipboard", expiresAt: now + Toast.lifetime)
            return state
        },
        GalleryEntry(id: "gallery:default", summary: "This list of screens") { now in
            AppState(stack: [.settings(.init(selection: 1)), .gallery(.init())], now: now)
        },
    ]

    /// Finds "SCREEN:STATE", or "SCREEN" alone meaning its first state.
    public static func entry(_ id: String) -> GalleryEntry? {
        if let exact = entries.first(where: { $0.id == id }) { return exact }
        return entries.first { $0.screen == id }
    }
}
