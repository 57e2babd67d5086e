/// Turns a rendered grid into a file: plain text, ANSI text for a terminal, or an SVG or HTML
/// picture in the theme's colours. Pure: the same grid and theme give the same string, which
/// always ends with a newline.
public enum GridExport {
    public static func export(
        _ grid: CellGrid, as format: ExportFormat, theme: Theme, title: String? = nil, frame: Bool = false
    )
        -> String
    {
        switch format {
        case .text: return text(grid)
        case .ansi: return ansi(grid, theme: theme)
        case .svg: return svg(grid, theme: theme, title: title, frame: frame)
        case .html: return html(grid, theme: theme, title: title, frame: frame)
        }
    }

    /// What `render` prints and snapshots store: the grid's text, trailing spaces trimmed.
    public static func text(_ grid: CellGrid) -> String { grid.text() + "\n" }

    /// SGR codes with xterm-256 colours (38;5;N, 48;5;N) and bold, dim, underline, reverse; the
    /// terminal's default colours stay its own. Each line starts plain and ends with a reset,
    /// so a line shown alone (grep, tail) is drawn right. Mono writes attributes only.
    public static func ansi(_ grid: CellGrid, theme: Theme) -> String {
        var lines: [String] = []
        for y in 0..<grid.size.rows {
            var line = ""
            var current = plainSGR
            for x in 0..<visibleEnd(row: y, of: grid, theme: theme) {
                let cell = grid[x, y]
                guard !cell.isContinuation else { continue }
                let sgr = selectGraphicRendition(cell.style, theme: theme)
                if sgr != current {
                    line += sgr
                    current = sgr
                }
                line += cell.grapheme
            }
            lines.append(line + plainSGR)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let plainSGR = "\u{1B}[0m"

    static func selectGraphicRendition(_ style: Style, theme: Theme) -> String {
        var codes = ["0"]
        let attributes = theme.drawnAttributes(style)
        if attributes.contains(.bold) { codes.append("1") }
        if attributes.contains(.dim) { codes.append("2") }
        if attributes.contains(.underline) { codes.append("4") }
        if attributes.contains(.reverse) { codes.append("7") }
        if theme.usesColor {
            if case .palette(let index) = theme.color(for: style.foreground) { codes.append("38;5;\(index)") }
            if case .palette(let index) = theme.color(for: style.background) { codes.append("48;5;\(index)") }
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// The column after the last cell that shows anything: trailing blanks in the terminal's
    /// own colours are left out, like the text's trailing spaces.
    private static func visibleEnd(row y: Int, of grid: CellGrid, theme: Theme) -> Int {
        var end = grid.size.cols
        while end > 0 {
            let cell = grid[end - 1, y]
            let shows =
                cell.grapheme != " " || !theme.drawnAttributes(cell.style).isDisjoint(with: [.reverse, .underline])
                || (theme.usesColor && theme.color(for: cell.style.background) != .terminalDefault)
            if shows { break }
            end -= 1
        }
        return end
    }
}
