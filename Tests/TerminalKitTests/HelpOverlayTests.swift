import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct HelpOverlayTests {
    @Test func listsEveryBindingOverADimmedScreen() {
        var grid = hubScreen()
        let help = HelpOverlay(sampleKeymap)
        help.render(into: &grid)
        let text = grid.text()
        for binding in sampleKeymap.hints {
            #expect(text.contains(binding.keyLabel))
            #expect(text.contains(binding.description))
        }
        #expect(grid[0, 0].style.attributes.contains(.dim))
        let frame = help.frame(in: grid.size)
        #expect(!grid[frame.x + 3, frame.y + 1].style.attributes.contains(.dim))
        assertSnapshot(of: grid, named: "help-overlay")
    }

    /// Nothing on a grid of no cells; on small ones, as much of the list as fits, inside the grid.
    @Test func smallGridsDrawWhatFits() {
        var none = CellGrid(size: Size(cols: 0, rows: 0))
        HelpOverlay(sampleKeymap).render(into: &none)
        #expect(none.textLines().isEmpty)
        for size in [Size(cols: 12, rows: 4), Size(cols: 40, rows: 8)] {
            var grid = CellGrid(size: size)
            HelpOverlay(sampleKeymap).render(into: &grid)
            assertSnapshot(of: grid, named: "help-overlay-\(size.cols)x\(size.rows)")
        }
    }
}
