import Testing

@testable import TerminalKit

/// Issue 50 item 4: in `--theme mono` (and under NO_COLOR) a sheet's destructive action is bold and the focused one
/// was plain, so the bold row read as the selected one. In mono the selection is reverse video, in the terminal
/// (`drawnAttributes`, which the curses painter uses) and in every export.
@Suite struct MonoFocusTests {
    /// "Delete account" (destructive, bold) above "Cancel", which has the focus.
    func sheet() -> CellGrid {
        var grid = canvas(40, 12)
        BottomSheet(
            title: "Delete account?", body: "This cannot be undone.",
            actions: [.init("Delete account", isDestructive: true), .init("Cancel")], selectedAction: 1
        ).render(into: &grid)
        return grid
    }

    func cell(_ text: String, in grid: CellGrid) throws -> Cell {
        let lines = grid.textLines()
        let y = try #require(lines.firstIndex { $0.contains(text) })
        let x = try #require(lines[y].range(of: text)).lowerBound.utf16Offset(in: lines[y])
        return grid[x, y]
    }

    @Test func theFocusedActionIsReverseVideoAndTheDestructiveOneIsNot() throws {
        let grid = sheet()
        let focused = try cell("Cancel", in: grid)
        let destructive = try cell("Delete account", in: grid)
        #expect(Theme.mono.drawnAttributes(focused.style).contains(.reverse))
        #expect(!Theme.mono.drawnAttributes(destructive.style).contains(.reverse))
        #expect(Theme.mono.drawnAttributes(destructive.style).contains(.bold))
        // The colour themes show the selection by its background: their attributes are the cell's own.
        #expect(Theme.dark.drawnAttributes(focused.style) == focused.style.attributes)
        // The exports draw it so too.
        let ansi = GridExport.ansi(grid, theme: .mono)
        #expect(ansi.contains("\u{1B}[0;7m") && ansi.contains("Cancel"))
        let look = ExportLook(focused.style, theme: .mono)
        #expect(look.foreground == Theme.mono.defaultBackgroundRGB)
    }
}
