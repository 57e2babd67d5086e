import AccessCore
import ChildProcess
import Foundation
import QRCode
import Testing

@testable import TerminalKit

/// The independent check issue 31 asks for: the QR code of an authenticator URI, drawn in cells on a
/// screen, exported to SVG, made a PNG by rsvg-convert and read back by zbarimg (Debian's zbar-tools),
/// in every theme. The half blocks are rectangles on whole pixels, so there is no seam between rows.
extension ExportPixelTests {
    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let zbarOrRsvgMissing: Comment =
        "skipped: zbarimg or rsvg-convert is missing; `make deps` installs Debian's zbar-tools and librsvg2-bin"

    /// A screen with the code of `uri` at (3, 2) and text around it, as a set-up screen has.
    func screen(withCodeOf uri: String) throws -> (grid: CellGrid, block: QRCodeBlock) {
        let matrix = try #require(QRMatrix(text: uri))
        let block = QRCodeBlock(modules: matrix.size, isDark: matrix.isDark(x:y:))
        var grid = canvas(block.size().cols + 6, block.size().rows + 4)
        grid.put("Scan this with your authenticator app", at: Point(x: 1, y: 0), style: .bold)
        #expect(block.render(into: &grid, at: Point(x: 3, y: 2)))
        grid.put("Or type the key", at: Point(x: 1, y: grid.size.rows - 1), style: .muted)
        return (grid, block)
    }

    @Test(
        .enabled(if: ExportPixelTests.rsvgConvert != nil && ExportPixelTests.zbarimg != nil, zbarOrRsvgMissing),
        arguments: [Theme.dark, Theme.light, Theme.mono])
    func theExportedQRCodeOfAnOtpauthURIScansBackToTheURI(theme: Theme) throws {
        let uri = TOTP.random().uri(issuer: "AccessDeck", account: "alex@example.com")
        let (grid, _) = try screen(withCodeOf: uri)
        let svg = GridExport.svg(grid, theme: theme)
        #expect(!svg.contains("▀") && !svg.contains("▄") && !svg.contains("█"), "blocks left as text")
        #expect(try scan(svg) == uri)
    }

    /// The left edge of the top-left finder pattern is 7 dark modules in a column, 63 px across three row
    /// boundaries: every pixel of it black, none of the light seam a font's block glyph leaves.
    @Test(.enabled(if: ExportPixelTests.rsvgConvert != nil, ExportPixelTests.rsvgMissing))
    func halfBlocksJoinAcrossRowsWithoutASeam() throws {
        let (grid, _) = try screen(withCodeOf: QRCodeBlockTests.uri)
        let module = ExportMetrics.cellWidth
        let left = Self.padding + (3 + QRCodeBlock.quietZone) * module
        let top = Self.padding + 2 * ExportMetrics.cellHeight + QRCodeBlock.quietZone * module
        var expected: [Point: String] = [:]
        for y in top..<(top + 7 * module) {
            for x in left..<(left + module) { expected[Point(x: x, y: y)] = "000000ff" }
        }
        // The quiet zone's white above and left of it, and the light separator module right of the ring.
        expected[Point(x: left - 1, y: top)] = "ffffffff"
        expected[Point(x: left, y: top - 1)] = "ffffffff"
        expected[Point(x: left + module * 7 + 4, y: top + 4)] = "ffffffff"
        let pixels = try render(GridExport.svg(grid, theme: .dark), points: Array(expected.keys))
        try check(pixels.colors, against: expected)
    }

    @Test func theHTMLDrawsBlocksAsShapesToo() throws {
        let (grid, _) = try screen(withCodeOf: QRCodeBlockTests.uri)
        let html = GridExport.html(grid, theme: .light)
        #expect(!html.contains("▀") && !html.contains("▄") && !html.contains("█"), "blocks left as text")
        #expect(html.contains("height=\"9\" fill=\"#000000\" shape-rendering=\"crispEdges\""))
    }

    /// The SVG as a PNG, read by `zbarimg --raw -q`: the text of the one code it finds.
    func scan(_ svg: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.svg")
        let output = folder.appendingPathComponent("out.png")
        try svg.write(to: input, atomically: true, encoding: .utf8)
        try run(Self.rsvgConvert!, ["-f", "png", "-o", output.path, input.path])
        var text = try run(Self.zbarimg!, ["--raw", "-q", output.path])
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
