import Foundation
import Testing

@testable import TerminalKit

/// Issue 50: the SVG export was garbled in every browser (padded runs collapsed and stretched with `textLength`),
/// and the HTML moved every cell after a flag, while rsvg-convert drew both right. Here the same grid is drawn by
/// rsvg-convert (the SVG) and by headless Chromium (the SVG, then the HTML page), and each cell's ink is compared:
/// a cell inked by one and blank in the other, or ink more than `tolerance` pixels to the side, is a fault.
/// Debian's chromium and librsvg2-bin, which `make deps` installs; scripts/png-cells.py reads the PNGs.
@Suite struct ExportBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let tools: Bool = chromium != nil && ExportPixelTests.rsvgConvert != nil
    static let missing: Comment =
        "skipped: chromium or rsvg-convert is missing; `make deps` installs them (sudo apt-get install chromium librsvg2-bin)"

    /// How far a cell's ink may sit from where the other renderer put it: the two rasterisers hint and
    /// anti-alias differently (1.4 px at most measured); the garbled export was 4.6 px off and inked blank cells.
    static let tolerance = 2.5

    /// What broke: spaces inside and around runs, a flag before text, wide glyphs, bold, an underline across a
    /// space, and a border.
    func grid() -> CellGrid {
        var grid = canvas(30, 7)
        grid.drawBox(Rect(x: 0, y: 0, width: 30, height: 7), lines: .rounded)
        grid.put("  Email & password  ", at: Point(x: 2, y: 1), style: .plain)
        grid.put("🇫🇷 France ▾  +33", at: Point(x: 2, y: 2), style: .plain)
        grid.put("日本 ab  cd", at: Point(x: 2, y: 3), style: .accent)
        grid.put("Send", at: Point(x: 2, y: 4), style: Style.accent.with(.bold))
        grid.put("a link", at: Point(x: 9, y: 4), style: Style.plain.with(.underline))
        grid.put("↑↓ Move  Enter Open", at: Point(x: 2, y: 5), style: .muted)
        return grid
    }

    /// Columns a colour emoji covers: drawn by different fonts in each renderer, so only the cells after them are
    /// compared.
    static let emojiCells: Set<Point> = [Point(x: 2, y: 2), Point(x: 3, y: 2)]

    @Test(.enabled(if: ExportBrowserTests.tools, ExportBrowserTests.missing))
    func theSVGIsDrawnAlikeByABrowserAndByRsvg() throws {
        let grid = grid()
        let svg = GridExport.svg(grid, theme: .dark)
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = try rsvg(svg, in: folder)
        let browser = try screenshot(svg, named: "in.svg", in: folder, window: pictureSize(grid))
        let origin = ExportMetrics.padding
        try compare(
            cells(reference, origin: (origin, origin), grid), cells(browser, origin: (origin, origin), grid),
            grid: grid)
    }

    @Test(.enabled(if: ExportBrowserTests.tools, ExportBrowserTests.missing))
    func theHTMLPageKeepsEveryCellWhereTheSVGHasIt() throws {
        let grid = grid()
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = try rsvg(GridExport.svg(grid, theme: .dark), in: folder)
        let html = GridExport.html(grid, theme: .dark)
        let (width, height) = pictureSize(grid)
        let page = try screenshot(html, named: "in.html", in: folder, window: (width + 64, height + 64))
        // The page's body padding (16 px) and the screen's own padding.
        let origin = 16 + ExportMetrics.padding
        let padding = ExportMetrics.padding
        try compare(
            cells(reference, origin: (padding, padding), grid), cells(page, origin: (origin, origin), grid),
            grid: grid)
    }

    // MARK: - Drawing and reading

    func pictureSize(_ grid: CellGrid) -> (Int, Int) {
        (
            grid.size.cols * ExportMetrics.cellWidth + 2 * ExportMetrics.padding,
            grid.size.rows * ExportMetrics.cellHeight + 2 * ExportMetrics.padding
        )
    }

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func rsvg(_ svg: String, in folder: URL) throws -> URL {
        let input = folder.appendingPathComponent("reference.svg")
        let output = folder.appendingPathComponent("reference.png")
        try svg.write(to: input, atomically: true, encoding: .utf8)
        try run(ExportPixelTests.rsvgConvert!, ["-f", "png", "-o", output.path, input.path])
        return output
    }

    func screenshot(_ document: String, named name: String, in folder: URL, window: (Int, Int)) throws -> URL {
        let input = folder.appendingPathComponent(name)
        let output = folder.appendingPathComponent(name + ".png")
        try document.write(to: input, atomically: true, encoding: .utf8)
        try run(
            Self.chromium!,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                "--window-size=\(window.0),\(window.1)", "--screenshot=\(output.path)", input.absoluteString,
            ])
        return output
    }

    struct Ink: Equatable {
        var pixels: Int
        var centreX: Double
    }

    func cells(_ png: URL, origin: (Int, Int), _ grid: CellGrid) throws -> [[Ink]] {
        let listing = try run(
            "/usr/bin/env",
            [
                "python3", ExportPixelTests.repository.appendingPathComponent("scripts/png-cells.py").path, png.path,
                "\(origin.0),\(origin.1)", "\(grid.size.cols)x\(grid.size.rows)",
                "\(ExportMetrics.cellWidth)x\(ExportMetrics.cellHeight)",
            ])
        return try listing.split(separator: "\n").map { line in
            let row = try JSONDecoder().decode([[Double]].self, from: Data(line.utf8))
            return row.map { Ink(pixels: Int($0[0]), centreX: $0[1]) }
        }
    }

    func compare(_ reference: [[Ink]], _ drawn: [[Ink]], grid: CellGrid) throws {
        try #require(reference.count == grid.size.rows && drawn.count == grid.size.rows)
        var faults: [String] = []
        for y in 0..<grid.size.rows {
            for x in 0..<grid.size.cols where !Self.emojiCells.contains(Point(x: x, y: y)) {
                let (a, b) = (reference[y][x], drawn[y][x])
                let what = "row \(y) column \(x) (\"\(grid[x, y].grapheme)\")"
                if (a.pixels > 0) != (b.pixels > 0) {
                    faults.append("\(what): \(a.pixels) ink pixels in rsvg, \(b.pixels) in Chromium")
                } else if a.pixels > 0, abs(a.centreX - b.centreX) > Self.tolerance {
                    faults.append("\(what): ink centred at \(a.centreX) px in rsvg, \(b.centreX) px in Chromium")
                }
            }
        }
        #expect(faults.isEmpty, "\(faults.count) cell(s) differ: \(faults.prefix(10).joined(separator: "; "))")
    }

    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> String {
        try ExportPixelTests().run(executable, arguments)
    }
}
