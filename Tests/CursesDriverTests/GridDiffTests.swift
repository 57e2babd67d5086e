import CursesDriver
import TerminalKit
import Testing

@Suite struct GridDiffTests {
    let size = Size(cols: 10, rows: 3)

    @Test func firstPaintIsEveryCell() {
        let grid = CellGrid(size: size)
        let points = GridDiff.changedCells(from: nil, to: grid)
        #expect(points.count == 30)
        #expect(points.first == Point(x: 0, y: 0))
        #expect(points.last == Point(x: 9, y: 2))
    }

    @Test func identicalGridsHaveNoChanges() {
        var grid = CellGrid(size: size)
        grid.put("Settings", at: Point(x: 1, y: 1), style: .bold)
        #expect(GridDiff.changedCells(from: grid, to: grid).isEmpty)
    }

    @Test func onlyChangedCells() {
        var old = CellGrid(size: size)
        old.put("code 1234", at: Point(x: 0, y: 1), style: .plain)
        var new = old
        new.put("5", at: Point(x: 8, y: 1), style: .plain)
        #expect(GridDiff.changedCells(from: old, to: new) == [Point(x: 8, y: 1)])
    }

    @Test func styleChangeCounts() {
        var old = CellGrid(size: size)
        old.put("ab", at: Point(x: 0, y: 0), style: .plain)
        var new = CellGrid(size: size)
        new.put("ab", at: Point(x: 0, y: 0), style: .plain)
        new.put("b", at: Point(x: 1, y: 0), style: Style(attributes: .reverse))
        #expect(GridDiff.changedCells(from: old, to: new) == [Point(x: 1, y: 0)])
    }

    @Test func wideGraphemeChangesItsCellAndContinuation() {
        let old = CellGrid(size: size)
        var new = old
        new.put("日", at: Point(x: 3, y: 2), style: .plain)
        #expect(GridDiff.changedCells(from: old, to: new) == [Point(x: 3, y: 2), Point(x: 4, y: 2)])
    }

    @Test func replacingAWideGraphemeWithNarrowTextRepaintsBothColumns() {
        var old = CellGrid(size: size)
        old.put("🇬🇪", at: Point(x: 0, y: 0), style: .plain)
        var new = old
        new.put("GE", at: Point(x: 0, y: 0), style: .plain)
        #expect(GridDiff.changedCells(from: old, to: new) == [Point(x: 0, y: 0), Point(x: 1, y: 0)])
    }

    @Test func sizeChangeRepaintsEverything() {
        let old = CellGrid(size: size)
        let new = CellGrid(size: Size(cols: 4, rows: 2))
        #expect(GridDiff.changedCells(from: old, to: new).count == 8)
    }
}
