import AccessAPI
import Foundation
import TerminalKit

/// Every screen in every named state, for designers' demos and support walk-throughs: the
/// same list `accessdeck screens` prints.
public struct GalleryScreen: ScreenModel {
    public var selection: Int
    public init(selection: Int = 0) { self.selection = selection }

    public var id: String { "gallery" }

    public enum Intent: Sendable { case up, down, pageUp, pageDown, show }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [
            .move(up: .up, down: .down),
            KeyBinding(
                KeyHint([.pageUp, .pageDown], "Page", inFooter: false),
                intents: [.pageUp: .pageUp, .pageDown: .pageDown]),
            .open("Show", .show),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let last = Gallery.entries.count - 1
        switch intent {
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(last, selection + 1)
        case .pageUp: selection = max(0, selection - 10)
        case .pageDown: selection = min(last, selection + 10)
        case .show: return [.push(PreviewScreen(entryID: Gallery.entries[selection].id))]
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
