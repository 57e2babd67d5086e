import TerminalKit

extension CellGrid {
    /// A panel over the dimmed screen (the outbox, the journal, the palette, the spec notes): the frame
    /// filled in the surface colour, boxed, its title in the top border. Returns the area inside, two
    /// columns in from each side.
    /// Beside the frame, on its rows, the screen is blanked: the few columns left of it were cut words (the "f"
    /// of an "Off" pill, issue 50).
    mutating func drawPanel(_ frame: Rect, title: String, glyphs: Glyphs) -> Rect {
        dim(except: frame)
        fill(Rect(x: 0, y: frame.y, width: frame.x, height: frame.height), style: .plain)
        fill(
            Rect(x: frame.maxX, y: frame.y, width: max(0, size.cols - frame.maxX), height: frame.height), style: .plain)
        let surface = Style.plain.on(.surface)
        fill(frame, style: surface)
        drawBox(frame, lines: glyphs.box, style: Style.border.on(.surface))
        put(
            TextLayout.truncate(" \(title) ", width: max(0, frame.width - 4)), at: Point(x: frame.x + 2, y: frame.y),
            style: surface.with(.bold))
        return frame.inset(horizontal: 2, vertical: 1)
    }

    /// One line of a panel's text at `y`, cut to the panel's width, and `y` a row down; nothing past its bottom.
    mutating func putLine(_ text: String, in inner: Rect, y: inout Int, style: Style) {
        guard y < inner.maxY else { return }
        put(TextLayout.truncate(text, width: inner.width), at: Point(x: inner.x, y: y), style: style)
        y += 1
    }

    /// A row of a panel's list, filled in `style`, the selection's glyph at its left so it shows without colour.
    mutating func drawRow(_ rect: Rect, style: Style, isSelected: Bool, glyphs: Glyphs) {
        fill(rect, style: style)
        put(isSelected ? glyphs.selected : " ", at: Point(x: rect.x, y: rect.y), style: style)
    }
}

extension Style {
    /// A panel's list row: bold on the selection colour when selected, else the panel's surface.
    static func panelRow(isSelected: Bool) -> Style {
        isSelected ? Style(background: .selection, attributes: .bold) : Style.plain.on(.surface)
    }
}
