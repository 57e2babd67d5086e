import ChildProcess
import Foundation
import Testing

@testable import TerminalKit

/// The pictures as a viewer draws them: each export turned into a PNG by `rsvg-convert` (Debian's
/// librsvg2-bin, which `make deps` installs) and read a pixel at a time by scripts/png-pixels.py.
/// Box drawing must join (a border's column continuous from corner to corner, no gap between rows),
/// and the padding and the window frame must be there.
@Suite struct ExportPixelTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let rsvgConvert = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Dark theme: light text (#d0d0d0) on the surface (#303030), the page around it #121212.
    static let line = "d0d0d0ff"
    static let surface = "303030ff"
    static let page = "121212ff"
    static let padding = ExportMetrics.padding

    /// A light box in columns 0–5 and a rounded one in 7–12, rows 0–3, on a surface background.
    func boxes() -> CellGrid {
        var grid = canvas(14, 5)
        let style = Style(background: .surface)
        grid.fill(grid.bounds, style: style)
        grid.drawBox(Rect(x: 0, y: 0, width: 6, height: 4), lines: .light, style: style)
        grid.drawBox(Rect(x: 7, y: 0, width: 6, height: 4), lines: .rounded, style: style)
        return grid
    }

    /// The pixel column of a vertical line in cell column `column`, the pixel row of a horizontal one.
    func lineX(_ column: Int) -> Int { column * ExportMetrics.cellWidth + BoxDrawingShape.centerColumn }
    func lineY(_ row: Int) -> Int { row * ExportMetrics.cellHeight + BoxDrawingShape.centerRow }

    @Test(.enabled(if: ExportPixelTests.rsvgConvert != nil, ExportPixelTests.rsvgMissing))
    func svgBoxDrawingJoinsAndThePaddingIsThere() throws {
        let svg = GridExport.svg(boxes(), theme: .dark)
        let o = Self.padding
        let top = lineY(0) + o
        let bottom = lineY(3) + o
        var expected: [Point: String] = [:]
        // The light box's right border, corner to corner, and its left border across every row boundary.
        for y in top...bottom {
            expected[Point(x: lineX(5) + o, y: y)] = Self.line
            expected[Point(x: lineX(0) + o, y: y)] = Self.line
        }
        // The top border meets both corners, with nothing sticking out past the right one.
        for x in (lineX(0) + o)...(lineX(5) + o) { expected[Point(x: x, y: top)] = Self.line }
        expected[Point(x: lineX(5) + o + 1, y: top)] = Self.surface
        expected[Point(x: lineX(5) + o, y: top - 1)] = Self.surface
        // The rounded box's right border between its turns (each a 4 px curve).
        for y in (top + 5)...(bottom - 5) { expected[Point(x: lineX(12) + o, y: y)] = Self.line }
        // Padding: the page colour all round, the screen's surface inside it.
        expected[Point(x: 3, y: 3)] = Self.page
        expected[Point(x: o + 2, y: o + 2)] = Self.surface
        expected[Point(x: o + 14 * 9 + o - 3, y: o + 5 * 18 + o - 3)] = Self.page
        let pixels = try render(svg, points: Array(expected.keys))
        #expect(pixels.size == "\(14 * 9 + 2 * o)x\(5 * 18 + 2 * o)")
        try check(pixels.colors, against: expected)
    }

    @Test(.enabled(if: ExportPixelTests.rsvgConvert != nil, ExportPixelTests.rsvgMissing))
    func aFramedSVGHasATransparentMarginATitleBarAndTheScreenBelowIt() throws {
        let svg = GridExport.svg(boxes(), theme: .dark, title: "AccessDeck hub", frame: true)
        #expect(svg.contains(">AccessDeck hub</text>"))
        let margin = ExportMetrics.frameMargin
        let originX = margin + Self.padding
        let originY = margin + ExportMetrics.titleBarHeight + Self.padding
        var expected: [Point: String] = [
            Point(x: 1, y: 1): "00000000",
            // The first of the three buttons.
            Point(x: margin + 18, y: margin + ExportMetrics.titleBarHeight / 2): "ff5f57ff",
            // The padding inside the window.
            Point(x: originX - 4, y: originY - 4): Self.page,
        ]
        for y in (originY + lineY(0))...(originY + lineY(3)) {
            expected[Point(x: originX + lineX(5), y: y)] = Self.line
        }
        let pixels = try render(svg, points: Array(expected.keys))
        try check(pixels.colors, against: expected)
    }

    /// HTML needs a browser to draw its text; its box drawing is the SVG laid over the rows, drawn here
    /// at the size of its cells.
    @Test(.enabled(if: ExportPixelTests.rsvgConvert != nil, ExportPixelTests.rsvgMissing))
    func htmlBoxDrawingOverlayJoins() throws {
        let html = GridExport.html(boxes(), theme: .dark)
        #expect(!html.contains("┌") && !html.contains("│") && !html.contains("╭"), "box drawing left as text")
        let start = try #require(html.range(of: "<svg class=\"lines\""))
        let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
        let overlay = String(html[start.lowerBound..<end.upperBound])
        var expected: [Point: String] = [:]
        for y in lineY(0)...lineY(3) {
            expected[Point(x: lineX(5), y: y)] = Self.line
            expected[Point(x: lineX(0), y: y)] = Self.line
        }
        for x in lineX(0)...lineX(5) { expected[Point(x: x, y: lineY(0))] = Self.line }
        expected[Point(x: lineX(5) + 1, y: lineY(0))] = "00000000"
        let pixels = try render(overlay, points: Array(expected.keys), size: (14 * 9, 5 * 18))
        try check(pixels.colors, against: expected)
    }

    @Test func aFlagNamesTheEmojiFonts() {
        var grid = canvas(6, 1)
        grid.put("🇬🇪 ab", at: Point(x: 0, y: 0), style: .plain)
        let svg = GridExport.svg(grid, theme: .dark)
        #expect(svg.contains("font-family=\"\(ExportMetrics.emojiFontFamily)\""))
        #expect(svg.components(separatedBy: "Noto Color Emoji").count == 2, "only the flag's text names them")
        let html = GridExport.html(grid, theme: .dark)
        // The cell's width in the row's font, the emoji font inside it.
        #expect(html.contains("class=\"s0\" style=\"width:18px\"><span class=\"e\">🇬🇪</span></span>"))
    }

    // MARK: - rsvg-convert and the pixels

    /// Why the pixel tests skip: the only reason they may.
    static let rsvgMissing: Comment =
        "skipped: rsvg-convert is missing; `make deps` installs Debian's librsvg2-bin (sudo apt-get install librsvg2-bin)"

    /// The picture's size and the RGBA (`rrggbbaa`) at each point.
    func render(
        _ svg: String, points: [Point], size: (Int, Int)? = nil
    ) throws -> (
        size: String, colors: [Point: String]
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.svg")
        let output = folder.appendingPathComponent("out.png")
        try svg.write(to: input, atomically: true, encoding: .utf8)
        var arguments = ["-f", "png", "-o", output.path]
        if let size { arguments += ["-w", String(size.0), "-h", String(size.1)] }
        try run(Self.rsvgConvert!, arguments + [input.path])
        let listing = try run(
            "/usr/bin/env",
            ["python3", Self.repository.appendingPathComponent("scripts/png-pixels.py").path, output.path]
                + points.map { "\($0.x),\($0.y)" })
        var lines = listing.split(separator: "\n").map(String.init)
        let size = String(lines.removeFirst().dropFirst("size ".count))
        var colors: [Point: String] = [:]
        for line in lines {
            let parts = line.split(separator: " ")
            let xy = parts[0].split(separator: ",").compactMap { Int($0) }
            colors[Point(x: xy[0], y: xy[1])] = String(parts[1])
        }
        return (size, colors)
    }

    /// Every point that is not the colour it should be, in one message.
    func check(_ colors: [Point: String], against expected: [Point: String]) throws {
        let wrong = expected.keys.sorted { ($0.y, $0.x) < ($1.y, $1.x) }.filter { colors[$0] != expected[$0] }
        let listing = wrong.prefix(12).map { "(\($0.x),\($0.y)) \(colors[$0] ?? "none") not \(expected[$0]!)" }
        #expect(wrong.isEmpty, "\(wrong.count) pixel(s) off: \(listing.joined(separator: "; "))")
    }

    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> String {
        let outcome = try ChildProcess.run(executable, arguments)
        let errorText = String(decoding: outcome.errors, as: UTF8.self)
        try #require(outcome.status == 0, "\(executable) \(arguments.joined(separator: " ")): \(errorText)")
        return String(decoding: outcome.output, as: UTF8.self)
    }
}
