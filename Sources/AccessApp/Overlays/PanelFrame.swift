import TerminalKit

extension CellGrid {
    /// A panel over the dimmed screen (the outbox, the journal, the palette, the spec notes): the frame
    /// filled in the surface colour, boxed, its title in the top border. Returns the area inside, two
    /// columns in from each side.
    mutating func drawPanel(_ frame: Rect, title: String, glyphs: Glyphs) -> Rect {
        dim(except: frame)
        let surface = Style.plain.on(.surface)
        fill(frame, style: surface)
        drawBox(frame, lines: glyphs.box, style: Style.border.on(.surface))
        put(
            TextLayout.truncate(" \(title) ", width: max(0, frame.width - 4)), at: Point(x: frame.x + 2, y: frame.y),
            style: surface.with(.bold))
        return frame.inset(horizontal: 2, vertical: 1)
    }
}
