import TerminalKit

/// Where a screen draws itself: the content area of the grid plus a cursor that moves down
/// as the screen adds a title, rows and text. Screens describe content; the canvas lays it out.
public struct Canvas {
    public var grid: CellGrid
    public let area: Rect
    public let canGoBack: Bool
    public private(set) var cursorY: Int

    static let margin = 2

    init(grid: CellGrid, area: Rect, canGoBack: Bool) {
        self.grid = grid
        self.area = area
        self.canGoBack = canGoBack
        cursorY = area.y
    }

    var innerWidth: Int { area.width - 2 * Self.margin }
    var left: Int { area.x + Self.margin }

    /// The screen's title bar: a back affordance when there is somewhere to go back to.
    mutating func title(_ text: String, subtitle: String? = nil) {
        if canGoBack {
            grid.put("‹ Back", at: Point(x: left, y: cursorY), style: .accent)
        }
        cursorY += 1
        grid.put(text, at: Point(x: left, y: cursorY), style: .bold, maxX: area.maxX - Self.margin)
        cursorY += 1
        if let subtitle {
            grid.put(subtitle, at: Point(x: left, y: cursorY), style: .muted, maxX: area.maxX - Self.margin)
            cursorY += 1
        }
        cursorY += 1
    }

    /// A list row: marker, title, muted detail line, and a control at a fixed right column.
    mutating func row(title: String, detail: String?, trailing: String, selected: Bool) {
        let rowStyle = selected ? Style(background: .selection) : Style.plain
        let height = detail == nil ? 1 : 2
        grid.fill(Rect(x: area.x + 1, y: cursorY, width: area.width - 2, height: height), style: rowStyle)
        grid.put(selected ? "▸" : " ", at: Point(x: area.x + 1, y: cursorY), style: rowStyle.with(.bold))
        let trailingWidth = DisplayWidth.of(trailing)
        let trailingX = area.maxX - Self.margin - trailingWidth
        grid.put(title, at: Point(x: left + 1, y: cursorY), style: rowStyle.with(selected ? .bold : []), maxX: trailingX - 1)
        grid.put(trailing, at: Point(x: trailingX, y: cursorY), style: Style(foreground: .muted, background: rowStyle.background))
        if let detail {
            grid.put(
                detail, at: Point(x: left + 1, y: cursorY + 1),
                style: Style(foreground: .muted, background: rowStyle.background), maxX: trailingX - 1)
        }
        cursorY += height + 1
    }

    /// Plain text, word-wrapped to the content width.
    mutating func paragraph(_ text: String, style: Style = .plain) {
        for line in Canvas.wrap(text, width: innerWidth) {
            grid.put(line, at: Point(x: left, y: cursorY), style: style)
            cursorY += 1
        }
        cursorY += 1
    }

    mutating func skip(_ rows: Int) { cursorY += rows }

    /// Splits text into lines no wider than `width` columns, breaking at spaces.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if DisplayWidth.of(candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
