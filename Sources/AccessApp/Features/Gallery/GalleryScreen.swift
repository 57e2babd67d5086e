import AccessAPI
import Foundation
import TerminalKit

/// Every screen in every named state, for designers' demos and support walk-throughs: the
/// same list `accessdeck screens` prints. A long list: ends, pages, where the selection stands,
/// and `/` to narrow it to the states whose id or summary hold the words typed.
public struct GalleryScreen: ScreenModel, FilterableList {
    public var selection: Int
    public var filter: ListFilter
    public init(selection: Int = 0, filter: ListFilter = ListFilter()) {
        self.selection = selection
        self.filter = filter
    }

    public var id: String { "gallery" }
    /// Letters go to the filter while it is typed.
    public var takesText: Bool { filter.isEditing }

    public enum Intent: Sendable { case list(ListIntent), show }

    /// The states shown: all of them, or those the filter keeps.
    var entries: [GalleryEntry] { Gallery.entries.filter { filter.matches([$0.id, $0.summary]) } }

    var shownCount: Int { entries.count }

    /// As in the journal: Enter ends the typing and keeps the filter; Esc clears it, and is Back otherwise.
    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        listBindings(moves: "Move", open: .open("Show", .show), Intent.list)
    }

    /// How far a page moves the selection.
    static let page = 10

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let shown = entries
        switch intent {
        case .list(.clearFilter):
            let chosen = shown.indices.contains(selection) ? shown[selection].id : nil
            perform(.clearFilter, page: Self.page)
            // The state chosen in the narrowed list stays chosen in the whole one.
            selection = chosen.flatMap { id in Gallery.entries.firstIndex { $0.id == id } } ?? 0
        case .list(let intent):
            perform(intent, page: Self.page)
        case .show:
            guard shown.indices.contains(selection) else { return [] }
            return [.push(PreviewScreen(entryID: shown[selection].id))]
        }
        return []
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        typeIntoFilter(event)
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let shown = entries
        let position = ListPosition(selection: selection, count: shown.count)
        canvas.title(
            "Screen gallery", subtitle: "\(position.indicator) · Enter shows a screen as a person would see it.")
        if filter.isActive {
            canvas.draw(height: 1, spacing: 0, isFocused: filter.isEditing) { grid, rect in
                filter.render(
                    into: &grid, at: Point(x: rect.x + 2, y: rect.y), width: rect.width - 4, style: .plain,
                    matched: shown.count, of: Gallery.entries.count)
            }
        }
        guard !shown.isEmpty else {
            canvas.paragraph("No state matches the filter.", style: .muted)
            return
        }
        let idWidth = shown.map { DisplayWidth.of($0.id) }.max() ?? 0
        let visible = max(1, canvas.area.maxY - canvas.cursorY)
        let first = position.firstShown(rows: visible, current: max(0, selection - visible + 1))
        for index in first..<min(shown.count, first + visible) {
            let id = shown[index].id
            let padded = id + String(repeating: " ", count: idWidth - DisplayWidth.of(id) + 2)
            canvas.row(ListRow(padded + shown[index].summary, isSelected: index == selection), spacing: 0)
        }
    }
}
