import AccessAPI
import Foundation
import TerminalKit

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

    public enum Intent: Sendable { case previous, next, platform, role, theme, ascii, size }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            KeyBinding(
                KeyHint([.left, .right], "Previous/next state", inFooter: false, aliases: [.pageUp, .pageDown]),
                intents: [.left: .previous, .pageUp: .previous, .right: .next, .pageDown: .next]),
            KeyBinding([.character("p")], "Platform", inFooter: false, .platform),
            KeyBinding([.character("r")], "Role: coach/athlete", inFooter: false, .role),
            KeyBinding([.character("t")], "Theme", inFooter: false, .theme),
            KeyBinding([.character("a")], "ASCII", inFooter: false, .ascii),
            KeyBinding([.character("s")], "Size", inFooter: false, .size),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let entries = Gallery.entries
        let index = entries.firstIndex { $0.id == entryID } ?? 0
        switch intent {
        case .previous: entryID = entries[max(0, index - 1)].id
        case .next: entryID = entries[min(entries.count - 1, index + 1)].id
        case .platform:
            let current = platform ?? shownState(context.now)?.options.platform ?? .ios
            platform = current == .ios ? .android : .ios
        case .role:
            let current = role ?? shownState(context.now)?.methods?.role.known ?? .athlete
            role = current == .athlete ? .coach : .athlete
        case .theme:
            let themes = Theme.Name.allCases
            let next = themes[((themes.firstIndex(of: context.options.theme) ?? 0) + 1) % themes.count]
            return [.setLooks(theme: next, ascii: context.options.ascii)]
        case .ascii:
            return [.setLooks(theme: context.options.theme, ascii: !context.options.ascii)]
        case .size:
            let sizes = Self.sizes
            size = sizes[((sizes.firstIndex(of: size) ?? 0) + 1) % sizes.count]
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
        if let role { shown.methods?.role = .init(role) }
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
