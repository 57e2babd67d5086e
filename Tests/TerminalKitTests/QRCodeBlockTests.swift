import QRCode
import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct QRCodeBlockTests {
    /// A 3×3 code whose rows are ███, ██·, █·█ (· light), so every half block shows up.
    static let tiny = QRCodeBlock(modules: 3) { x, y in y == 0 || x == 0 || (x == 2 && y == 2) || (x == 1 && y == 1) }

    static let uri =
        "otpauth://totp/AccessDeck%3Aalex@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=AccessDeck"
        + "&algorithm=SHA1&digits=6&period=30"

    static func block(of text: String) throws -> QRCodeBlock {
        let matrix = try #require(QRMatrix(text: text))
        return QRCodeBlock(modules: matrix.size, isDark: matrix.isDark(x:y:))
    }

    @Test func itsSizeCountsTheQuietZoneAndTwoModuleRowsATerminalRow() throws {
        // 3 modules + 4 either side = 11 across, 11 module rows in 6 terminal rows (the last half light).
        #expect(Self.tiny.span == 11)
        #expect(Self.tiny.size() == Size(cols: 11, rows: 6))
        #expect(Self.tiny.size(glyphs: .ascii) == Size(cols: 22, rows: 11))
        let version8 = try Self.block(of: Self.uri)
        #expect(version8.modules == 49)
        #expect(version8.size() == Size(cols: 57, rows: 29))
    }

    @Test func halfBlocksDrawTwoModuleRowsInOneTerminalRow() {
        var grid = canvas(13, 8)
        #expect(changed(Self.tiny.render(into: &grid, at: Point(x: 1, y: 1))))
        // Module rows 4 and 5 (code rows 0 and 1) share terminal row 2; rows 6 and 7 (code row 2 and
        // quiet zone) terminal row 3.
        #expect(grid.text(row: 1, from: 1, to: 12) == String(repeating: " ", count: 11))
        #expect(grid.text(row: 3, from: 5, to: 8) == "██▀")
        #expect(grid.text(row: 4, from: 5, to: 8) == "▀ ▀")
        #expect(grid.text(row: 6, from: 1, to: 12) == String(repeating: " ", count: 11))
        // Every cell of the block, quiet zone too, has the code's style; nothing outside it is touched.
        for cell in cells(of: grid, in: Rect(x: 1, y: 1, width: 11, height: 6)) {
            #expect(cell.style == QRCodeBlock.lightStyle)
        }
        #expect(grid[0, 0].style == .plain && grid[12, 7].style == .plain)
    }

    /// The glyph is drawn in the cell's background role through reverse video: ink on paper in both
    /// colour themes, and in mono the terminal's background on its foreground (dark on light on a dark
    /// terminal, as the exports draw mono).
    @Test(arguments: [Theme.dark, Theme.light])
    func darkModulesAreBlackOnWhiteInEveryColourTheme(theme: Theme) {
        let look = ExportLook(QRCodeBlock.lightStyle, theme: theme)
        #expect(look.foreground == RGB(0, 0, 0))
        #expect(look.background == RGB(255, 255, 255))
        let ascii = ExportLook(QRCodeBlock.darkStyle, theme: theme)
        #expect(ascii.background == RGB(0, 0, 0))
    }

    @Test func monoDrawsTheCodeInReverseVideoWithoutColour() {
        let look = ExportLook(QRCodeBlock.lightStyle, theme: .mono)
        #expect(look.foreground == Theme.mono.defaultBackgroundRGB)
        #expect(look.background == Theme.mono.defaultForegroundRGB)
        #expect(Theme.mono.color(for: .ink) == .terminalDefault && Theme.mono.color(for: .paper) == .terminalDefault)
    }

    /// ASCII has no half blocks: a module is two spaces, a module row a terminal row, and the asciiFallback
    /// of the screen (what `--ascii` shows) leaves it as it is.
    @Test func asciiDrawsAModuleAsTwoSpacesInReverseVideoOrNot() {
        var grid = canvas(24, 12)
        #expect(changed(Self.tiny.render(into: &grid, at: Point(x: 1, y: 0), glyphs: .ascii)))
        #expect(grid.text().allSatisfy { $0 == " " || $0 == "\n" })
        func module(_ x: Int, _ y: Int) -> [Style] {
            [grid[1 + 2 * (x + 4), y + 4].style, grid[2 + 2 * (x + 4), y + 4].style]
        }
        let dark = [QRCodeBlock.darkStyle, QRCodeBlock.darkStyle]
        let light = [QRCodeBlock.lightStyle, QRCodeBlock.lightStyle]
        #expect(module(0, 0) == dark && module(2, 0) == dark && module(1, 1) == dark && module(2, 2) == dark)
        #expect(module(2, 1) == light && module(1, 2) == light && module(-1, 0) == light && module(3, 2) == light)
        #expect(grid.asciiFallback() == grid)
    }

    @Test func aCodeThatDoesNotFitWholeIsNotDrawnAtAll() {
        var grid = canvas(11, 5)
        #expect(!changed(Self.tiny.render(into: &grid, at: Point(x: 0, y: 0))))
        #expect(grid == canvas(11, 5))
        var wide = canvas(11, 6)
        #expect(!changed(Self.tiny.render(into: &wide, at: Point(x: 1, y: 0))))
        #expect(changed(Self.tiny.render(into: &wide, at: Point(x: 0, y: 0))))
    }

    @Test func snapshotOfAnOtpauthURI() throws {
        let block = try Self.block(of: Self.uri)
        var grid = CellGrid(size: block.size())
        block.render(into: &grid, at: Point(x: 0, y: 0))
        assertSnapshot(of: grid, named: "qr-code-otpauth")
    }

    @Test func snapshotOfTheTinyCode() {
        var grid = canvas(11, 6)
        Self.tiny.render(into: &grid, at: Point(x: 0, y: 0))
        assertSnapshot(of: grid, named: "qr-code-tiny")
    }
}
