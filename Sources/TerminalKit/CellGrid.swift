/// One terminal cell: a grapheme cluster, the columns it takes, and its style.
///
/// A wide grapheme occupies its own cell and the next one; that next cell is a
/// continuation (`width == 0`, empty grapheme) and is never drawn on its own.
public struct Cell: Hashable, Sendable {
    public var grapheme: String
    public var width: Int
    public var style: Style

    public init(grapheme: String, width: Int, style: Style) {
        self.grapheme = grapheme
        self.width = width
        self.style = style
    }

    public static func blank(_ style: Style = .plain) -> Cell { Cell(grapheme: " ", width: 1, style: style) }
    static func continuation(_ style: Style) -> Cell { Cell(grapheme: "", width: 0, style: style) }

    public var isContinuation: Bool { width == 0 }
}

/// A screen's worth of cells. Rendering produces one; the driver paints it; snapshots print it.
public struct CellGrid: Hashable, Sendable {
    public let size: Size
    public private(set) var cells: [Cell]

    public init(size: Size, style: Style = .plain) {
        self.size = Size(cols: max(0, size.cols), rows: max(0, size.rows))
        cells = Array(repeating: .blank(style), count: self.size.cols * self.size.rows)
    }

    public var bounds: Rect { Rect(size: size) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.cols + x] }
    }

    func contains(x: Int, y: Int) -> Bool { x >= 0 && y >= 0 && x < size.cols && y < size.rows }

    /// Writes text from `point`, clipped at `maxX` (exclusive, default the grid's width).
    /// Returns the column after the last one written. A wide grapheme that would cross the
    /// clip edge is replaced by a blank so no half-glyph is drawn. Control characters and bidi controls are
    /// skipped: a bidi override kept as a zero-width mark on the cell before it would reach the terminal.
    @discardableResult
    public mutating func put(_ text: some StringProtocol, at point: Point, style: Style, maxX: Int? = nil) -> Int {
        let limit = min(maxX ?? size.cols, size.cols)
        var x = point.x
        let y = point.y
        guard y >= 0, y < size.rows else { return x }
        for character in text {
            if character.unicodeScalars.allSatisfy(ControlCharacters.isUnsafe) {
                continue
            }
            let width = DisplayWidth.of(character)
            if width == 0 {
                attachZeroWidth(character, before: x, y: y)
                continue
            }
            if x >= limit { break }
            if x < 0 {
                x += width
                continue
            }
            if x + width > limit {
                setCell(.blank(style), x: x, y: y)
                x = limit
                break
            }
            setCell(Cell(grapheme: String(character), width: width, style: style), x: x, y: y)
            if width == 2 { setCell(.continuation(style), x: x + 1, y: y) }
            x += width
        }
        return x
    }

    /// Fills a rectangle with blank cells of a style.
    public mutating func fill(_ rect: Rect, style: Style, character: Character = " ") {
        let clipped = clip(rect)
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX {
                setCell(Cell(grapheme: String(character), width: 1, style: style), x: x, y: y)
            }
        }
    }

    /// Changes the style of every cell in a rectangle (used to dim the screen below a sheet).
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let clipped = clip(rect)
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX { change(&cells[y * size.cols + x].style) }
        }
    }

    /// Copies another grid in at an offset (for composing a component rendered on its own).
    /// Wide glyphs cut by the edges of either grid become blanks, never half glyphs.
    public mutating func draw(_ other: CellGrid, at origin: Point) {
        for y in 0..<other.size.rows {
            for x in 0..<other.size.cols {
                let dx = origin.x + x
                let dy = origin.y + y
                guard contains(x: dx, y: dy) else { continue }
                let cell = other[x, y]
                let orphan =
                    (cell.isContinuation && (x == 0 || !contains(x: dx - 1, y: dy)))
                    || (cell.width == 2 && (x + 1 >= other.size.cols || !contains(x: dx + 1, y: dy)))
                setCell(orphan ? .blank(cell.style) : cell, x: dx, y: dy)
            }
        }
    }

    /// Copies `count` whole rows of a grid of the same width, from its row `source` to this one's row
    /// `destination` (a scrolled view of something drawn taller than the screen).
    public mutating func copyRows(from other: CellGrid, source: Int, to destination: Int, count: Int) {
        guard other.size.cols == size.cols else { return }
        for row in 0..<count {
            let from = source + row
            let to = destination + row
            guard from >= 0, from < other.size.rows, to >= 0, to < size.rows else { continue }
            cells.replaceSubrange(
                to * size.cols..<(to + 1) * size.cols, with: other.cells[from * size.cols..<(from + 1) * size.cols])
        }
    }

    /// The grid as plain text, one string per row, trailing spaces trimmed: what snapshots
    /// store and `render` prints.
    public func textLines() -> [String] {
        (0..<size.rows).map { y in
            var line = ""
            for x in 0..<size.cols {
                let cell = self[x, y]
                if !cell.isContinuation { line += cell.grapheme }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    public func text() -> String { textLines().joined(separator: "\n") }

    /// The text of one row between two columns, for tests that look at one region.
    public func text(row y: Int, from x0: Int = 0, to x1: Int? = nil) -> String {
        var line = ""
        for x in max(0, x0)..<min(x1 ?? size.cols, size.cols) where !self[x, y].isContinuation {
            line += self[x, y].grapheme
        }
        return line
    }

    private func clip(_ rect: Rect) -> Rect {
        let x0 = max(0, rect.x)
        let y0 = max(0, rect.y)
        return Rect(x: x0, y: y0, width: min(rect.maxX, size.cols) - x0, height: min(rect.maxY, size.rows) - y0)
    }

    /// Sets one cell, repairing any wide grapheme it cuts in half. A continuation is only ever
    /// written right after its own lead, so it leaves the cell on its left alone.
    private mutating func setCell(_ cell: Cell, x: Int, y: Int) {
        guard contains(x: x, y: y) else { return }
        let index = y * size.cols + x
        let old = cells[index]
        if old.isContinuation, x > 0, !cell.isContinuation { cells[index - 1] = .blank(cells[index - 1].style) }
        if old.width == 2, x + 1 < size.cols, cell.width != 2 { cells[index + 1] = .blank(old.style) }
        cells[index] = cell
    }

    /// A lone combining mark joins the grapheme before it; at the start of a row it is dropped.
    private mutating func attachZeroWidth(_ character: Character, before x: Int, y: Int) {
        var lead = x - 1
        while lead >= 0, self[lead, y].isContinuation { lead -= 1 }
        guard lead >= 0, contains(x: lead, y: y) else { return }
        cells[y * size.cols + lead].grapheme += String(character)
    }
}
