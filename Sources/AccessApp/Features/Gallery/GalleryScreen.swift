import AccessAPI
import Foundation
import TerminalKit

/// Every screen in every named state, for designers' demos and support walk-throughs: the
/// same list `accessdeck screens` prints.
public struct GalleryScreen: ScreenModel {
    public var selection: Int
    public init(selection: Int = 0) { self.selection = selection }

    public var id: String { "gallery" }

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([
            .move,
            KeyHint([.pageUp, .pageDown], "Page", inFooter: false),
            .open("Show"),
        ])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event else { return nil }
        let last = Gallery.entries.count - 1
        switch key {
        case .up, .character("k"): selection = max(0, selection - 1)
        case .down, .character("j"): selection = min(last, selection + 1)
        case .pageUp: selection = max(0, selection - 10)
        case .pageDown: selection = min(last, selection + 10)
        case .enter, .right: return [.push(PreviewScreen(entryID: Gallery.entries[selection].id))]
        default: return nil
        }
        return []
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Screen gallery", subtitle: "Enter shows a screen as a person would see it.")
        let entries = Gallery.entries
        let idWidth = entries.map { DisplayWidth.of($0.id) }.max() ?? 0
        let visible = max(1, canvas.area.maxY - canvas.cursorY)
        let first = min(max(0, selection - visible + 1), max(0, entries.count - visible))
        for index in first..<min(entries.count, first + visible) {
            let id = entries[index].id
            let padded = id + String(repeating: " ", count: idWidth - DisplayWidth.of(id) + 2)
            canvas.row(ListRow(padded + entries[index].summary, isSelected: index == selection), spacing: 0)
        }
    }
}

/// One gallery entry shown as a person would see it, for demos: ←/→ go through the states like slides,
/// and the looks switch live (platform, role, theme, ASCII, size). Drawn by `render`; Esc goes back.
public struct PreviewScreen: ScreenModel {
    public var entryID: String
    /// nil: the state's own platform ("hub:android" is android).
    public var platform: AppOptions.Platform?
    /// nil: the state's own role.
    public var role: UserRole?
    /// nil: the whole terminal.
    public var size: Size?

    public init(entryID: String, platform: AppOptions.Platform? = nil, role: UserRole? = nil, size: Size? = nil) {
        self.entryID = entryID
        self.platform = platform
        self.role = role
        self.size = size
    }

    public var id: String { "preview" }

    /// The sizes `s` goes through: the terminal's own, then common phone-like and small terminals.
    public static let sizes: [Size?] = [
        nil, Size(cols: 80, rows: 24), Size(cols: 100, rows: 30), Size(cols: 60, rows: 20), Size(cols: 40, rows: 12),
    ]

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([
            KeyHint([.left, .right], "Previous/next state", inFooter: false, aliases: [.pageUp, .pageDown]),
            KeyHint([.character("p")], "Platform", inFooter: false),
            KeyHint([.character("r")], "Role: coach/athlete", inFooter: false),
            KeyHint([.character("t")], "Theme", inFooter: false),
            KeyHint([.character("a")], "ASCII", inFooter: false),
            KeyHint([.character("s")], "Size", inFooter: false),
        ])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event else { return nil }
        let entries = Gallery.entries
        let index = entries.firstIndex { $0.id == entryID } ?? 0
        switch key {
        case .left, .pageUp: entryID = entries[max(0, index - 1)].id
        case .right, .pageDown: entryID = entries[min(entries.count - 1, index + 1)].id
        case .character("p"):
            let current = platform ?? shownState(context.now)?.options.platform ?? .ios
            platform = current == .ios ? .android : .ios
        case .character("r"):
            let current = role ?? shownState(context.now)?.methods?.role ?? .athlete
            role = current == .athlete ? .coach : .athlete
        case .character("t"):
            let themes = Theme.Name.allCases
            let next = themes[((themes.firstIndex(of: context.options.theme) ?? 0) + 1) % themes.count]
            return [.setLooks(theme: next, ascii: context.options.ascii)]
        case .character("a"):
            return [.setLooks(theme: context.options.theme, ascii: !context.options.ascii)]
        case .character("s"):
            let sizes = Self.sizes
            size = sizes[((sizes.firstIndex(of: size) ?? 0) + 1) % sizes.count]
        default: return nil
        }
        return []
    }

    /// The state shown: the entry's, with this preview's choices and the app's looks.
    public func shownState(_ now: Date, looks: AppOptions? = nil) -> AppState? {
        guard let entry = Gallery.entry(entryID) else { return nil }
        var shown = entry.makeState(now)
        let platform = self.platform ?? shown.options.platform
        if let looks { shown.options = looks }
        shown.options.platform = platform
        if let role { shown.methods?.role = role }
        return shown
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
