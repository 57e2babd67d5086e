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
            KeyBinding([.pageUp, .pageDown], "Page", inFooter: false),
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

/// One gallery entry shown full screen (drawn by `render`); Esc goes back to the list.
public struct PreviewScreen: ScreenModel {
    public var entryID: String
    public var id: String { "preview" }
    public func keymap(_ context: ScreenContext) -> Keymap { Keymap([]) }
    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? { nil }
    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.paragraph("No screen named \(entryID).", style: .danger)
    }
}
