import AccessAPI
import Foundation
import TerminalKit

/// One gallery entry shown as a person would see it, for demos: ←/→ go through the states like slides,
/// and the looks switch live (platform, role, theme, ASCII, size). Drawn by `render` with its own footer
/// line in place of the state's; Esc goes back.
public struct PreviewScreen: ScreenModel {
    public var entryID: String
    /// nil: the state's own platform ("hub:android" is android).
    public var platform: AppOptions.Platform?
    /// nil: the state's own role.
    public var role: UserRole?
    /// nil: the whole terminal.
    public var size: Size?
    /// nil: the app's. The preview's own, so leaving it leaves the app's looks as they were.
    public var theme: Theme.Name?
    /// nil: the app's.
    public var ascii: Bool?

    public init(
        entryID: String, platform: AppOptions.Platform? = nil, role: UserRole? = nil, size: Size? = nil,
        theme: Theme.Name? = nil, ascii: Bool? = nil
    ) {
        self.entryID = entryID
        self.platform = platform
        self.role = role
        self.size = size
        self.theme = theme
        self.ascii = ascii
    }

    public var id: String { "preview" }

    /// The sizes `s` goes through: the terminal's own, then common phone-like and small terminals.
    public static let sizes: [Size?] = [
        nil, Size(cols: 80, rows: 24), Size(cols: 100, rows: 30), Size(cols: 60, rows: 20), Size(cols: 40, rows: 12),
    ]

    public enum Intent: Sendable { case previous, next, back, platform, role, theme, ascii, size }

    /// The footer's order: its position takes a third of an 80-column row, so the way out and the looks
    /// come before what is left out ("…") there; `?` lists them all.
    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            KeyBinding(
                KeyHint([.left, .right], "State", aliases: [.pageUp, .pageDown]),
                intents: [.left: .previous, .pageUp: .previous, .right: .next, .pageDown: .next]),
            KeyBinding([.escape], "Back", .back),
            KeyBinding([.character("t")], "Theme", .theme),
            KeyBinding([.character("a")], "ASCII", .ascii),
            KeyBinding([.character("p")], "Platform", .platform),
            KeyBinding([.character("r")], "Role", .role),
            KeyBinding([.character("s")], "Size", .size),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let entries = Gallery.entries
        let index = entries.firstIndex { $0.id == entryID } ?? 0
        switch intent {
        case .previous: entryID = entries[max(0, index - 1)].id
        case .next: entryID = entries[min(entries.count - 1, index + 1)].id
        case .back: return [.pop]
        case .platform:
            let current = platform ?? shownState()?.options.platform ?? .ios
            platform = current == .ios ? .android : .ios
        case .role:
            let current = role ?? shownState()?.methods?.role.known ?? .athlete
            role = current == .athlete ? .coach : .athlete
        case .theme:
            let themes = Theme.Name.allCases
            let current = theme ?? context.options.theme
            theme = themes[((themes.firstIndex(of: current) ?? 0) + 1) % themes.count]
        case .ascii:
            ascii = !(ascii ?? context.options.ascii)
        case .size:
            let sizes = Self.sizes
            size = sizes[((sizes.firstIndex(of: size) ?? 0) + 1) % sizes.count]
        }
        return []
    }

    /// The state shown: the entry's, with this preview's choices and the app's looks (or the preview's own).
    /// The state shown, at the gallery's sample time (`Gallery.sampleTime`) whatever the app's clock says.
    public func shownState(looks: AppOptions? = nil) -> AppState? {
        guard let entry = Gallery.entry(entryID) else { return nil }
        var shown = entry.makeState(Gallery.sampleTime)
        let platform = self.platform ?? shown.options.platform
        if let looks { shown.options = looks }
        shown.options.platform = platform
        if let theme { shown.options.theme = theme }
        if let ascii { shown.options.ascii = ascii }
        if let role { shown.methods?.role = .init(role) }
        return shown
    }

    /// Where the state is among the gallery's, for the preview's footer: "hub:default · 3 of 199".
    public var position: String {
        let entries = Gallery.entries
        guard let index = entries.firstIndex(where: { $0.id == entryID }) else { return entryID }
        return "\(entryID) · \(index + 1) of \(entries.count)"
    }

    /// What the preview shows, for its caption: "hub:offline · android · coach · 80×24".
    public func caption(_ shown: AppState) -> String {
        var parts = [entryID, shown.options.platform == .ios ? "iOS" : "Android"]
        if let role = shown.methods?.role { parts.append(role.rawValue) }
        if let size { parts.append("\(size.cols)×\(size.rows)") }
        return parts.joined(separator: " · ")
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.paragraph("No screen named \(entryID).", style: .danger)
    }
}

extension AppState {
    /// The looks the terminal paints a frame in: the app's, or a preview's own while it is on top.
    public var paintedLooks: (theme: Theme.Name, ascii: Bool) {
        guard let preview = top.as(PreviewScreen.self) else { return (options.theme, options.ascii) }
        return (preview.theme ?? options.theme, preview.ascii ?? options.ascii)
    }
}
