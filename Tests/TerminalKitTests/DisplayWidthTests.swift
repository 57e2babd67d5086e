import Testing

@testable import TerminalKit

@Suite struct DisplayWidthTests {
    @Test func flagIsTwoColumns() {
        #expect(DisplayWidth.of("🇬🇪") == 2)
        #expect(DisplayWidth.of("🇬🇪 Georgia") == 10)
    }

    @Test func euroIsOneColumn() { #expect(DisplayWidth.of("€320.50") == 7) }

    @Test func cjkIsTwoColumns() { #expect(DisplayWidth.of("日本") == 4) }

    @Test func combiningMarkIsZeroColumns() {
        #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
        #expect(DisplayWidth.of("\u{301}") == 0)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Cafe\u{301}") == 4)
    }

    @Test func zwjFamilyDoesNotCorruptTheRow() {
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(family.count == 1)
        #expect(DisplayWidth.of(family) == 2)
        var grid = CellGrid(size: Size(cols: 10, rows: 1))
        let end = grid.put("\(family)ab", at: Point(x: 0, y: 0), style: .plain)
        #expect(end == 4)
        #expect(grid[2, 0].grapheme == "a")
        #expect(grid[3, 0].grapheme == "b")
        #expect(grid[1, 0].isContinuation)
        #expect(grid.textLines() == ["\(family)ab"])
    }

    @Test func textAfterFlagStartsAtTheRightColumn() {
        var grid = CellGrid(size: Size(cols: 20, rows: 1))
        grid.put("🇬🇪 Georgia", at: Point(x: 1, y: 0), style: .plain)
        #expect(grid[4, 0].grapheme == "G")
        #expect(grid.textLines() == [" 🇬🇪 Georgia"])
    }

    @Test func combiningMarkInGridJoinsItsBase() {
        var grid = CellGrid(size: Size(cols: 5, rows: 1))
        let end = grid.put("e\u{301}x", at: Point(x: 0, y: 0), style: .plain)
        #expect(end == 2)
        #expect(grid[1, 0].grapheme == "x")
        #expect(grid.textLines() == ["e\u{301}x"])
    }

    @Test func wideCharClippedAtRightEdgeLeavesNoHalfGlyph() {
        var grid = CellGrid(size: Size(cols: 5, rows: 1))
        grid.put("abcd日", at: Point(x: 0, y: 0), style: .plain)
        #expect(grid[4, 0].grapheme == " ")
        #expect(grid[4, 0].width == 1)
        #expect(grid.textLines() == ["abcd"])

        var clipped = CellGrid(size: Size(cols: 10, rows: 1))
        clipped.put("ab日", at: Point(x: 0, y: 0), style: .plain, maxX: 3)
        #expect(clipped.textLines() == ["ab"])
        #expect(!clipped[3, 0].isContinuation)
    }

    @Test func overwritingTheSecondHalfOfAWideCharRepairsTheFirst() {
        var grid = CellGrid(size: Size(cols: 4, rows: 1))
        grid.put("日", at: Point(x: 0, y: 0), style: .plain)
        grid.put("x", at: Point(x: 1, y: 0), style: .plain)
        #expect(grid[0, 0].grapheme == " ")
        #expect(grid[0, 0].width == 1)
        #expect(grid.textLines() == [" x"])
    }

    @Test func overwritingTheFirstHalfOfAWideCharRepairsTheSecond() {
        var grid = CellGrid(size: Size(cols: 4, rows: 1))
        grid.put("日", at: Point(x: 1, y: 0), style: .plain)
        grid.put("x", at: Point(x: 1, y: 0), style: .plain)
        #expect(!grid[2, 0].isContinuation)
        #expect(grid.textLines() == [" x"])
    }

    @Test func wideCharOverTwoWideCharsRepairsBoth() {
        var grid = CellGrid(size: Size(cols: 6, rows: 1))
        grid.put("日本", at: Point(x: 0, y: 0), style: .plain)
        grid.put("中", at: Point(x: 1, y: 0), style: .plain)
        #expect(grid.textLines() == [" 中"])
        #expect(grid[0, 0].width == 1)
        #expect(grid[3, 0].width == 1)
    }

    @Test func fillOverHalfAWideCharRepairsIt() {
        var grid = CellGrid(size: Size(cols: 4, rows: 1))
        grid.put("日", at: Point(x: 0, y: 0), style: .plain)
        grid.fill(Rect(x: 1, y: 0, width: 1, height: 1), style: .plain, character: "-")
        #expect(grid.textLines() == [" -"])
    }
}

@Suite struct CellGridRepairTests {
    @Test func wideCharOverTheSameWideChar() {
        var grid = CellGrid(size: Size(cols: 4, rows: 1))
        grid.put("日", at: Point(x: 0, y: 0), style: .plain)
        grid.put("中", at: Point(x: 0, y: 0), style: .plain)
        #expect(grid.textLines() == ["中"])
        #expect(grid[0, 0].width == 2)
        #expect(grid[1, 0].isContinuation)
    }

    @Test func flagOverFlagInTheSameColumns() {
        var grid = CellGrid(size: Size(cols: 6, rows: 1))
        grid.put("🇬🇪 GE", at: Point(x: 0, y: 0), style: .plain)
        grid.put("🇺🇸", at: Point(x: 0, y: 0), style: .plain)
        #expect(grid.textLines() == ["🇺🇸 GE"])
    }

    @Test func drawOverHalfAWideCharRepairsIt() {
        var grid = CellGrid(size: Size(cols: 4, rows: 1))
        grid.put("日本", at: Point(x: 0, y: 0), style: .plain)
        var patch = CellGrid(size: Size(cols: 1, rows: 1))
        patch.put("x", at: Point(x: 0, y: 0), style: .plain)
        grid.draw(patch, at: Point(x: 1, y: 0))
        #expect(grid.textLines() == [" x本"])
    }

    @Test func drawClipsAWideCharAtTheEdgeToABlank() {
        var grid = CellGrid(size: Size(cols: 3, rows: 1))
        var patch = CellGrid(size: Size(cols: 4, rows: 1))
        patch.put("a日b", at: Point(x: 0, y: 0), style: .plain)
        grid.draw(patch, at: Point(x: 1, y: 0))
        #expect(grid.textLines() == [" a"])
        #expect(grid[2, 0].width == 1)
        var left = CellGrid(size: Size(cols: 3, rows: 1))
        left.draw(patch, at: Point(x: -2, y: 0))
        #expect(left.textLines() == [" b"])
        #expect(!left[0, 0].isContinuation)
    }
}
