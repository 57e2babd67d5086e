import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct TooSmallNoticeTests {
    @Test func at30x8() {
        var grid = canvas(30, 8)
        TooSmallNotice.render(into: &grid)
        #expect(grid.text().contains("Terminal too small"))
        #expect(grid.text().contains("Resize to at least 40×12"))
        #expect(grid.text().contains("q quits"))
        assertSnapshot(of: grid, named: "too-small-30x8")
    }

    @Test func wideEnoughForTheWholeHint() {
        var grid = canvas(39, 11)
        TooSmallNotice.render(into: &grid)
        #expect(grid.text().contains("Resize to at least 40×12 · q quits"))
    }

    @Test func tinySizesDoNotCrash() {
        var tiny = canvas(10, 3)
        TooSmallNotice.render(into: &tiny)
        #expect(tiny.textLines() == ["Terminal…", "", "Resize to…"])
        var line = canvas(10, 1)
        TooSmallNotice.render(into: &line)
        #expect(line.textLines() == ["Terminal…"])
        for size in [Size(cols: 0, rows: 0), Size(cols: 1, rows: 1), Size(cols: 0, rows: 5), Size(cols: 5, rows: 0)] {
            var grid = CellGrid(size: size)
            TooSmallNotice.render(into: &grid)
        }
    }
}
