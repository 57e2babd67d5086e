import TerminalKit

/// Every screen in every named state, for designers' demos and support walk-throughs: the
/// same list `accessdeck screens` prints.
public enum GalleryScreen {
    public struct State: Equatable, Sendable {
        public var selection: Int
        public init(selection: Int = 0) { self.selection = selection }
    }

    public enum Action: Equatable, Sendable {
        case move(Int)
        case open
    }

    static let keymap = Keymap([
        KeyBinding([.up, .down], "Move"),
        KeyBinding([.pageUp, .pageDown], "Page", inFooter: false),
        KeyBinding([.enter], "Show"),
    ])

    static func action(for key: Key, in state: State) -> Action? {
        switch key {
        case .up, .character("k"): return .move(-1)
        case .down, .character("j"): return .move(1)
        case .pageUp: return .move(-10)
        case .pageDown: return .move(10)
        case .enter, .right: return .open
        default: return nil
        }
    }

    static func reduce(_ state: inout State, _ action: Action) -> [Command] {
        let entries = Gallery.entries
        switch action {
        case .move(let delta):
            state.selection = min(max(0, state.selection + delta), entries.count - 1)
            return []
        case .open:
            return [.push(.preview(.init(entryID: entries[state.selection].id)))]
        }
    }

    static func view(_ state: State, into canvas: inout Canvas) {
        canvas.title("Screen gallery", subtitle: "Enter shows a screen as a person would see it.")
        let entries = Gallery.entries
        let visibleRows = max(1, canvas.area.maxY - canvas.cursorY)
        let summaryX = canvas.left + 3 + (entries.map { DisplayWidth.of($0.id) }.max() ?? 0)
        let first = min(max(0, state.selection - visibleRows + 1), max(0, entries.count - visibleRows))
        for index in first..<min(entries.count, first + visibleRows) {
            let selected = index == state.selection
            let style = selected ? Style(background: .selection).with(.bold) : Style.plain
            let y = canvas.cursorY
            canvas.grid.fill(Rect(x: canvas.area.x + 1, y: y, width: canvas.area.width - 2, height: 1), style: style)
            canvas.grid.put(selected ? "▸" : " ", at: Point(x: canvas.area.x + 1, y: y), style: style)
            canvas.grid.put(entries[index].id, at: Point(x: canvas.left + 1, y: y), style: style)
            canvas.grid.put(
                entries[index].summary, at: Point(x: summaryX, y: y),
                style: Style(foreground: .muted, background: style.background), maxX: canvas.area.maxX - 2)
            canvas.skip(1)
        }
    }
}

/// One gallery entry shown full screen; Esc goes back to the list.
public enum PreviewScreen {
    public struct State: Equatable, Sendable {
        public var entryID: String
    }
}
