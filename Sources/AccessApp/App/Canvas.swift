import Foundation
import TerminalKit

/// Where a screen draws itself: the content column of the grid and a cursor that moves down as the
/// screen adds a title, rows and text. Screens say what to show; the canvas lays it out with
/// TerminalKit's components, two columns in from each side of a column at most `maxContentWidth`
/// wide, centred (the title bar spans the whole width). It notes where the focus is drawn (the
/// selected row, the focused field or button) and where each list row is, so the renderer can keep
/// the focus on screen and a click can find a row.
public struct Canvas {
    public var grid: CellGrid
    /// The content column.
    public let area: Rect
    /// The whole width the screen has, for the title bar.
    public let fullArea: Rect
    public let canGoBack: Bool
    public let glyphs: Glyphs
    public private(set) var cursorY: Int
    /// The row under the last thing drawn, spacing after it not counted: whether anything fell below the area.
    public private(set) var drawnBottom: Int
    /// Where each list row was drawn, in order, and which of them is the selected one: what a click on
    /// a row is matched against (the screen says where its selection is; nothing reads colours back).
    public private(set) var listRows: [Rect] = []
    public private(set) var selectedRow: Int?
    /// Where the focus was drawn: what must stay visible when the screen is taller than the terminal.
    public private(set) var focus: Rect?
    /// The first row under the title bar: rows above it stay put when the rest scrolls.
    public private(set) var titleBottom: Int
    /// The frame's banner (offline, a wait), drawn under the title bar above the screen's content, as seed
    /// 000 puts the offline banner above the list; nil once drawn.
    var banner: (banner: Banner, now: Date)?

    static let margin = 2
    /// Past this width content stops growing: a pencil icon stays near its label, fields near their text.
    public static let maxContentWidth = 100

    init(grid: CellGrid, area: Rect, canGoBack: Bool, glyphs: Glyphs) {
        self.grid = grid
        fullArea = area
        let width = min(area.width, Self.maxContentWidth)
        self.area = Rect(x: area.x + (area.width - width) / 2, y: area.y, width: width, height: area.height)
        self.canGoBack = canGoBack
        self.glyphs = glyphs
        cursorY = area.y
        drawnBottom = area.y
        titleBottom = area.y
    }

    public var left: Int { area.x + Self.margin }
    public var innerWidth: Int { area.width - 2 * Self.margin }
    /// What is left below the cursor.
    public var remaining: Rect { Rect(x: area.x, y: cursorY, width: area.width, height: area.maxY - cursorY) }

    /// The title the screen gave, for a tape's `expect title` (issue 51 item 2); nil for a screen without one.
    public private(set) var titleText: String?

    public mutating func title(_ text: String, subtitle: String? = nil) {
        titleText = text
        let bar = TitleBar(text, canGoBack: canGoBack, subtitle: subtitle)
        let rect = Rect(x: fullArea.x, y: cursorY, width: fullArea.width, height: area.maxY - cursorY)
        bar.render(into: &grid, in: rect, glyphs: glyphs)
        cursorY += bar.height
        if let (banner, now) = banner {
            let height = min(banner.height, max(0, area.maxY - cursorY))
            let rect = Rect(x: fullArea.x, y: cursorY, width: fullArea.width, height: height)
            banner.render(into: &grid, in: rect, now: now)
            cursorY += height
            self.banner = nil
        }
        cursorY += 1
        titleBottom = min(cursorY, area.maxY)
    }

    public mutating func row(_ row: ListRow, spacing: Int = 1) {
        let rect = Rect(x: area.x, y: cursorY, width: area.width, height: row.height)
        row.render(into: &grid, in: remaining, glyphs: glyphs)
        noteRow(rect, isSelected: row.isSelected)
        drew(row.height)
        cursorY += row.height + spacing
    }

    /// A row of a list the screen draws itself (a searchable list): where it is, and whether it is the
    /// selected one (then it is the focus).
    public mutating func noteRow(_ rect: Rect, isSelected: Bool) {
        guard rect.height > 0 else { return }
        if isSelected {
            selectedRow = listRows.count
            focus = rect
        }
        listRows.append(rect)
    }

    /// Word-wrapped text across the content width.
    public mutating func paragraph(_ text: String, style: Style = .plain, spacing: Int = 1) {
        for line in TextLayout.wrap(text, width: innerWidth) {
            if cursorY < area.maxY {
                grid.put(line, at: Point(x: left, y: cursorY), style: style, maxX: area.maxX - Self.margin)
            }
            drew(1)
            cursorY += 1
        }
        cursorY += spacing
    }

    /// One line, centred.
    public mutating func centered(_ text: String, style: Style = .plain, spacing: Int = 1) {
        grid.putCentered(text, row: cursorY, in: area, style: style)
        drew(1)
        cursorY += 1 + spacing
    }

    /// Placeholder rows of two lines each, `spacing` apart, and a blank line after them.
    public mutating func skeleton(rows: Int, spacing: Int = 1) {
        let skeleton = SkeletonRows(count: rows, spacing: spacing)
        skeleton.render(into: &grid, in: remaining, glyphs: glyphs)
        drew(skeleton.height)
        cursorY += skeleton.height + 1
    }

    /// Draws a component in the next `height` rows; `isFocused` when it holds the focus (the code boxes).
    public mutating func draw(
        height: Int, spacing: Int = 1, isFocused: Bool = false, _ body: (inout CellGrid, Rect) -> Void
    ) {
        let rect = Rect(x: area.x, y: cursorY, width: area.width, height: min(height, area.maxY - cursorY))
        body(&grid, rect)
        if isFocused { focus = Rect(x: area.x, y: cursorY, width: area.width, height: height) }
        drew(height)
        cursorY += height + spacing
    }

    public mutating func skip(_ rows: Int) { cursorY += rows }

    private mutating func drew(_ height: Int) { drawnBottom = max(drawnBottom, cursorY + height) }

    /// A screen's call to action, centred: "[ Send code ]" when it can be pressed, dimmed without
    /// brackets or marker when it cannot (without colour the missing brackets say "off"; forms pass
    /// over it with Tab, see `FocusOrder`), `working` while its request runs.
    public mutating func button(
        _ label: String, working: String, isReady: Bool, isFocused: Bool, isWorking: Bool, spacing: Int = 1
    ) {
        if isFocused { focus = Rect(x: area.x, y: cursorY, width: area.width, height: 1) }
        if isWorking {
            centered(working, style: .muted, spacing: spacing)
        } else if isReady {
            var style = Style.accent.with(.bold)
            if isFocused { style.attributes.insert(.reverse) }
            centered(isFocused ? "\(glyphs.selected) [ \(label) ]" : "[ \(label) ]", style: style, spacing: spacing)
        } else {
            centered("  \(label)  ", style: Style.muted.with(.dim), spacing: spacing)
        }
    }

    /// A field drawn across the content width; `spacing` 0 where a form needs every row (the field's
    /// own error row still parts it from what follows).
    public mutating func field(_ field: TextField, spacing: Int = 1) {
        let glyphs = glyphs
        draw(height: field.height(width: innerWidth), spacing: spacing, isFocused: field.isFocused) { grid, rect in
            field.render(into: &grid, in: rect.inset(horizontal: Canvas.margin), glyphs: glyphs)
        }
    }
}
