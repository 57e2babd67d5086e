import CNcursesw
import TerminalKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes single cells with ncurses: grapheme, attributes and a cached colour pair.
final class CellPainter {
    private let window: UnsafeMutablePointer<WINDOW>
    private let theme: Theme
    private var pairs: ColorPairTable?
    private var availableColors = 0

    init(window: UnsafeMutablePointer<WINDOW>, theme: Theme) {
        self.window = window
        self.theme = theme
        // Mono makes no colour calls at all, so not one colour escape reaches the terminal.
        if theme.usesColor, has_colors() {
            start_color()
            use_default_colors()
            availableColors = Int(accessdeck_colors())
            pairs = ColorPairTable(maximumPairs: Int(accessdeck_color_pairs()))
        }
    }

    /// Draws the cell at an absolute position, so a terminal that disagrees about the width of
    /// an earlier grapheme cannot shift this one.
    func draw(_ cell: Cell, at point: Point, screenWidth: Int) {
        guard !cell.isContinuation else { return }
        let attributes = self.attributes(theme.drawnAttributes(cell.style))
        let pair = self.pair(for: cell.style)
        let character = cell.grapheme.first ?? " "
        var scalars = DisplayWidth.drawableScalars(character)
        if cell.width == 2, point.x + 1 >= screenWidth { scalars = [" "] }
        if scalars.isEmpty { scalars = [" "] }
        if scalars.count == 2, cell.width == 2, scalars.allSatisfy({ (0x1F1E6...0x1F1FF).contains($0.value) }) {
            // glibc, ncurses and tmux all count a regional indicator as one column: drawn as
            // two cells, the flag takes the two columns the grid reserved.
            put([scalars[0]], y: point.y, x: point.x, attributes: attributes, pair: pair)
            put([scalars[1]], y: point.y, x: point.x + 1, attributes: attributes, pair: pair)
            return
        }
        let libcWidth = accessdeck_wcwidth(wchar_t(bitPattern: scalars[0].value))
        if libcWidth < 0 || Int(libcWidth) > max(cell.width, 1) {
            // ncurses would take more columns than the grid reserved and clobber a neighbour.
            scalars = ["?"]
        }
        put(scalars, y: point.y, x: point.x, attributes: attributes, pair: pair)
        if cell.width == 2, libcWidth == 1, point.x + 1 < screenWidth {
            put([" "], y: point.y, x: point.x + 1, attributes: attributes, pair: pair)
        }
    }

    private func put(_ scalars: [Unicode.Scalar], y: Int, x: Int, attributes: attr_t, pair: Int16) {
        var text = scalars.map { wchar_t(bitPattern: $0.value) }
        text.append(0)
        var cell = cchar_t()
        _ = setcchar(&cell, text, attributes, pair, nil)
        // At the bottom-right corner this returns ERR (the cursor cannot advance with scrolling
        // off), but the cell is stored and refresh draws it without scrolling.
        _ = mvwadd_wch(window, Int32(y), Int32(x), &cell)
    }

    private func attributes(_ attributes: Attributes) -> attr_t {
        var result = accessdeck_a_normal()
        if attributes.contains(.bold) { result |= accessdeck_a_bold() }
        if attributes.contains(.underline) { result |= accessdeck_a_underline() }
        if attributes.contains(.reverse) { result |= accessdeck_a_reverse() }
        if attributes.contains(.dim) { result |= accessdeck_a_dim() }
        return result
    }

    private func pair(for style: Style) -> Int16 {
        guard pairs != nil else { return 0 }
        func curses(_ role: ColorRole) -> Int16 {
            ColorMapping.cursesColor(
                theme.color(for: role, availableColors: availableColors), availableColors: availableColors)
        }
        let combination = ColorPairTable.Combination(
            foreground: curses(style.foreground), background: curses(style.background))
        let (pair, isNew) = pairs!.pair(for: combination)
        if isNew { init_pair(pair, combination.foreground, combination.background) }
        return pair
    }
}
