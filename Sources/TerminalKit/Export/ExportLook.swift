/// How a cell looks once its roles are turned into concrete colours: what SVG and HTML draw.
struct ExportLook: Hashable {
    var foreground: RGB
    var background: RGB
    var bold: Bool
    var underline: Bool

    /// Reverse swaps the colours as drawn (the terminal default included); dim draws the
    /// foreground halfway to the background, as terminals show faint text.
    init(_ style: Style, theme: Theme) {
        var foreground = theme.rgb(theme.color(for: style.foreground), default: theme.defaultForegroundRGB)
        var background = theme.rgb(theme.color(for: style.background), default: theme.defaultBackgroundRGB)
        let attributes = theme.drawnAttributes(style)
        if attributes.contains(.reverse) { swap(&foreground, &background) }
        if attributes.contains(.dim) { foreground = foreground.mixed(with: background, 0.5) }
        self.foreground = foreground
        self.background = background
        bold = attributes.contains(.bold)
        underline = attributes.contains(.underline)
    }
}

extension Theme {
    /// The terminal's own foreground as an export draws it: a picture has no terminal to ask,
    /// so each theme names the one it was made for (light text on dark, dark text on light).
    public var defaultForegroundRGB: RGB {
        name == .light ? XtermPalette.rgb(235) : XtermPalette.rgb(252)
    }

    /// The terminal's own background as an export draws it.
    public var defaultBackgroundRGB: RGB {
        rgb(color(for: .background), default: name == .light ? XtermPalette.rgb(231) : XtermPalette.rgb(233))
    }

    func rgb(_ color: TerminalColor, default fallback: RGB) -> RGB {
        switch color {
        case .terminalDefault: return fallback
        case .palette(let index): return XtermPalette.rgb(index)
        }
    }
}

/// Cells of one row drawn together: same look, and either a run of glyphs every monospace
/// font draws one cell wide, or one glyph on its own (wide, emoji, symbols) that the picture
/// squeezes into exactly its cells so the columns after it stay put.
struct ExportSegment: Hashable {
    var column: Int
    var width: Int
    var text: String
    var look: ExportLook
    var isOwnGlyph: Bool

    var isBlank: Bool { !look.underline && text.allSatisfy { $0 == " " } }

    /// The row's cells in segments that cover it from column 0 to its end, continuation cells
    /// inside their wide glyph's segment.
    static func row(_ y: Int, of grid: CellGrid, theme: Theme) -> [ExportSegment] {
        var segments: [ExportSegment] = []
        for x in 0..<grid.size.cols {
            let cell = grid[x, y]
            guard !cell.isContinuation else { continue }
            let look = ExportLook(cell.style, theme: theme)
            let fixedPitch = cell.width == 1 && isFixedPitch(cell.grapheme)
            if fixedPitch, let last = segments.last, !last.isOwnGlyph, last.look == look {
                segments[segments.count - 1].text += cell.grapheme
                segments[segments.count - 1].width += 1
            } else {
                segments.append(
                    ExportSegment(
                        column: x, width: max(cell.width, 1), text: cell.grapheme, look: look,
                        isOwnGlyph: !fixedPitch))
            }
        }
        return segments
    }

    /// The segment's text with its box drawing and ▀ ▄ █ blanked (the picture draws them as shapes),
    /// and the shapes with their columns.
    func splittingShapes() -> (text: String, shapes: [(column: Int, shape: CellShape)]) {
        guard !isOwnGlyph else { return (text, []) }
        var text = ""
        var shapes: [(column: Int, shape: CellShape)] = []
        for (offset, character) in self.text.enumerated() {
            if let shape = CellShape(String(character)) {
                shapes.append((column + offset, shape))
                text += " "
            } else {
                text.append(character)
            }
        }
        return (text, shapes)
    }

    /// A glyph a colour emoji font should draw: a flag (two regional indicators), an emoji shown as
    /// one by default, or one asked to be with U+FE0F. A monospace font has none of these, and a
    /// viewer's fallback may pick a monochrome font, so the picture names the emoji fonts.
    var isEmoji: Bool { isOwnGlyph && Self.isEmojiGlyph(text) }

    static func isEmojiGlyph(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return true }
        return first.properties.isEmojiPresentation
            || (first.properties.isEmoji && text.unicodeScalars.contains("\u{FE0F}"))
    }

    /// ASCII, Latin letters, box drawing and blocks: one cell wide in every monospace font.
    static func isFixedPitch(_ grapheme: String) -> Bool {
        let scalars = grapheme.unicodeScalars
        guard scalars.count == 1, let value = scalars.first?.value else { return false }
        return (0x20..<0x7F).contains(value) || (0xA0..<0x250).contains(value) || (0x2500..<0x25A0).contains(value)
    }
}

/// Character data and attribute values for XML and HTML.
func escapeMarkup(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.count)
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.append(character)
        }
    }
    return result
}

/// The cell size and font of the pictures: 15 px type whose box drawing spans the 18 px line,
/// so borders join from row to row; a monospace advance is 0.6 em, 9 px.
enum ExportMetrics {
    static let cellWidth = 9
    static let cellHeight = 18
    static let fontSize = 15
    static let baseline = 14
    /// The underline's row of pixels in a cell: under the baseline, above the cell's end.
    static let underline = 16
    static let fontFamily =
        "ui-monospace, 'SF Mono', Menlo, 'DejaVu Sans Mono', 'Cascadia Mono', Consolas, 'Liberation Mono', monospace"
    /// For flags and emoji: the colour emoji font of each system first.
    static let emojiFontFamily =
        "'Apple Color Emoji', 'Noto Color Emoji', 'Segoe UI Emoji', 'Twemoji Mozilla', 'EmojiOne Color', sans-serif"
    /// Space around the screen, always: a picture on a slide needs room from its edge.
    static let padding = 16
    /// With a window frame: the transparent margin around the window, and its title bar.
    static let frameMargin = 12
    static let titleBarHeight = 30
    static let titleFontFamily = "-apple-system, 'Segoe UI', 'DejaVu Sans', Helvetica, Arial, sans-serif"
}
