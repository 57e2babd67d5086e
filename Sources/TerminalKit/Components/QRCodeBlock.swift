/// A QR code drawn in cells, for a phone to scan off the terminal: the modules of a code made
/// elsewhere (TerminalKit encodes nothing; Sources/QRCode does, with libqrencode).
///
/// Half blocks put two module rows in one terminal row (▀ top dark, ▄ bottom dark, █ both, space
/// neither), so a module is half a cell tall and a cell wide: square in a terminal font, whose cells
/// are about twice as tall as wide. Around it a quiet zone of `quietZone` light modules, as the QR
/// specification asks: without it a scanner cannot find the finder patterns against what is beside.
///
/// Dark modules are dark on light in every theme (`ColorRole.ink` on `.paper`), never the theme's
/// text on its background: a camera reads dark on light, and the dark theme's text is light. The
/// colours come through reverse video (the glyph drawn in the cell's background role), so that the mono
/// theme (`NO_COLOR`), which has no colours, still draws the code dark on light on a terminal with light
/// text on a dark background — the terminal mono's export assumes; on a light one it comes out inverted.
///
/// With ASCII glyphs (`--ascii`, `TERM=linux`/`dumb`) there are no half blocks: a module is two
/// spaces, light ones in reverse video, one module row a terminal row. That is twice as tall, so a
/// screen must check `size(glyphs:)` and fall back to the secret in text where it does not fit.
public struct QRCodeBlock: Hashable, Sendable {
    /// Light modules around the code on every side: the QR specification's quiet zone.
    public static let quietZone = 4

    /// Modules on a side of the code itself, quiet zone not counted.
    public let modules: Int
    private let dark: [Bool]

    /// The code's `modules` × `modules` matrix, `isDark(x, y)` for a dark module (column x, row y).
    public init(modules: Int, isDark: (Int, Int) -> Bool) {
        self.modules = max(0, modules)
        var dark: [Bool] = []
        dark.reserveCapacity(self.modules * self.modules)
        for y in 0..<self.modules {
            for x in 0..<self.modules { dark.append(isDark(x, y)) }
        }
        self.dark = dark
    }

    /// Modules on a side with the quiet zone.
    public var span: Int { modules + 2 * Self.quietZone }

    /// The cells it takes: half blocks a cell per module across and two module rows a terminal row
    /// (an odd span's last row has light modules in its bottom half); ASCII two cells per module
    /// across and a terminal row per module.
    public func size(glyphs: Glyphs = .unicode) -> Size {
        glyphs.halfBlocks ? Size(cols: span, rows: (span + 1) / 2) : Size(cols: 2 * span, rows: span)
    }

    /// Whether the module at (x, y) of the span (quiet zone included) is dark.
    func isDark(spanX x: Int, spanY y: Int) -> Bool {
        let column = x - Self.quietZone
        let row = y - Self.quietZone
        guard column >= 0, row >= 0, column < modules, row < modules else { return false }
        return dark[row * modules + column]
    }

    /// Light modules: reverse video of paper on ink, so the colour themes show paper and mono shows the
    /// terminal's foreground. A half block's glyph is then ink (the terminal's background in mono).
    static let lightStyle = Style(foreground: .paper, background: .ink, attributes: .reverse)
    /// Dark modules in ASCII: ink, or the terminal's own background in mono.
    static let darkStyle = Style(foreground: .paper, background: .ink)

    /// Draws the code with its quiet zone, its top-left corner at `origin`. Draws nothing and returns
    /// false when it does not fit in the grid whole: a cut code scans as nothing.
    @discardableResult
    public func render(into grid: inout CellGrid, at origin: Point, glyphs: Glyphs = .unicode) -> Bool {
        let cells = size(glyphs: glyphs)
        guard origin.x >= 0, origin.y >= 0, origin.x + cells.cols <= grid.size.cols,
            origin.y + cells.rows <= grid.size.rows
        else { return false }
        if glyphs.halfBlocks {
            for row in 0..<cells.rows {
                let line = (0..<span).map { x in
                    Self.halfBlock(top: isDark(spanX: x, spanY: 2 * row), bottom: isDark(spanX: x, spanY: 2 * row + 1))
                }
                grid.put(String(line), at: Point(x: origin.x, y: origin.y + row), style: Self.lightStyle)
            }
        } else {
            for y in 0..<span {
                for x in 0..<span {
                    let style = isDark(spanX: x, spanY: y) ? Self.darkStyle : Self.lightStyle
                    grid.put("  ", at: Point(x: origin.x + 2 * x, y: origin.y + y), style: style)
                }
            }
        }
        return true
    }

    static func halfBlock(top: Bool, bottom: Bool) -> Character {
        switch (top, bottom) {
        case (true, true): return "█"
        case (true, false): return "▀"
        case (false, true): return "▄"
        case (false, false): return " "
        }
    }
}
