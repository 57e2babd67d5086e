/// The characters of a box outline.
public struct BoxLines: Hashable, Sendable {
    public var topLeft: Character
    public var topRight: Character
    public var bottomLeft: Character
    public var bottomRight: Character
    public var horizontal: Character
    public var vertical: Character

    public init(
        _ topLeft: Character, _ topRight: Character, _ bottomLeft: Character, _ bottomRight: Character,
        _ horizontal: Character, _ vertical: Character
    ) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let rounded = BoxLines("╭", "╮", "╰", "╯", "─", "│")
    public static let light = BoxLines("┌", "┐", "└", "┘", "─", "│")
    /// Focus is shown by the line weight, so it survives the mono theme.
    public static let heavy = BoxLines("┏", "┓", "┗", "┛", "━", "┃")
    /// Disabled is shown by a broken line, again not by colour alone.
    public static let dashed = BoxLines("┌", "┐", "└", "┘", "╌", "╎")
    public static let ascii = BoxLines("+", "+", "+", "+", "-", "|")
    public static let asciiHeavy = BoxLines("#", "#", "#", "#", "=", "#")
    public static let asciiDashed = BoxLines("+", "+", "+", "+", ".", ":")
}

extension CellGrid {
    /// Draws a box outline on the edge of `rect`; the inside is left as it is. Boxes smaller
    /// than 2×2 are not drawn.
    public mutating func drawBox(_ rect: Rect, lines: BoxLines = .rounded, style: Style = .border) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let inner = String(repeating: lines.horizontal, count: rect.width - 2)
        put(String(lines.topLeft) + inner + String(lines.topRight), at: Point(x: rect.x, y: rect.y), style: style)
        for y in rect.y + 1..<rect.maxY - 1 {
            put(String(lines.vertical), at: Point(x: rect.x, y: y), style: style)
            put(String(lines.vertical), at: Point(x: rect.maxX - 1, y: y), style: style)
        }
        put(
            String(lines.bottomLeft) + inner + String(lines.bottomRight), at: Point(x: rect.x, y: rect.maxY - 1),
            style: style)
    }

    /// Dims every cell outside `rect` (the screen under a sheet or overlay): dim attribute plus
    /// muted foreground, so it reads as "behind" in colour and in mono.
    public mutating func dim(except rect: Rect? = nil) {
        let keep = rect ?? Rect(x: 0, y: 0, width: 0, height: 0)
        for y in 0..<size.rows {
            for x in 0..<size.cols {
                if x >= keep.x, x < keep.maxX, y >= keep.y, y < keep.maxY { continue }
                restyle(Rect(x: x, y: y, width: 1, height: 1)) { style in
                    style.attributes.insert(.dim)
                    style.foreground = .muted
                }
            }
        }
    }

    /// Writes text centred in a row of `rect`, truncated with "…" to its width.
    @discardableResult
    public mutating func putCentered(_ text: String, row y: Int, in rect: Rect, style: Style) -> Int {
        let cut = TextLayout.truncate(text, width: rect.width)
        let x = TextLayout.centeredX(width: DisplayWidth.of(cut), in: rect.width, from: rect.x)
        return put(cut, at: Point(x: x, y: y), style: style, maxX: rect.maxX)
    }

    /// Writes text right-aligned so it ends at `maxX` (exclusive).
    @discardableResult
    public mutating func putRight(_ text: String, endingAt maxX: Int, row y: Int, style: Style) -> Int {
        let x = maxX - DisplayWidth.of(text)
        put(text, at: Point(x: x, y: y), style: style, maxX: maxX)
        return x
    }
}
