import Foundation
import Testing

@testable import AccessApp
@testable import TerminalKit

/// Issue 50 item 4: the subtitle of a selected row was 2.8:1 (dark) and 3.25:1 (light), a field's hint text 2.25:1
/// (it was dim; now muted, TextFieldTests), unfocused borders under 3:1. Every cell of every gallery state, drawn in each colour theme as the exports
/// draw it, against WCAG 2 AA: text 4.5:1, borders, rules and marks 3:1. Dim cells are left out: dim is for what
/// cannot be used now (a disabled button, the screen behind a sheet, a loading skeleton), which WCAG exempts.
@Suite struct ContrastTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let text = 4.5
    static let graphics = 3.0

    @Test(arguments: [Theme.dark, Theme.light])
    func everyCellOfEveryStateMeetsWCAGAA(theme: Theme) {
        // By colour pair: the first place it was seen, and its ratio.
        var faults: [String: String] = [:]
        Self.forEachGlyph { id, x, y, cell in
            guard !cell.style.attributes.contains(.dim), let character = cell.grapheme.first else { return }
            let look = ExportLook(cell.style, theme: theme)
            let ratio = look.foreground.contrast(with: look.background)
            let isText = character.isLetter || character.isNumber || character.isPunctuation
            guard ratio < (isText ? Self.text : Self.graphics) else { return }
            let pair =
                "\(cell.style.foreground) on \(cell.style.background)"
                + "\(cell.style.attributes.contains(.reverse) ? " reversed" : "") \(isText ? "text" : "mark")"
            if faults[pair] == nil {
                faults[pair] =
                    "\(pair) \(String(format: "%.2f", ratio)):1, first in \(id) at \(x),\(y) \"\(cell.grapheme)\""
            }
        }
        #expect(
            faults.isEmpty,
            "\(faults.count) colour pair(s) under AA:\n\(faults.values.sorted().joined(separator: "\n"))")
    }

    /// An 8-colour terminal (xterm's default TERM) drew backgrounds, borders, rules and the selection bar all in
    /// black. Every cell drawn there shows its glyph in another colour than its background, and the selection
    /// bar stands out from the screen and the sheets.
    @Test(arguments: [Theme.dark, Theme.light])
    func onEightColoursEveryGlyphAndTheSelectionBarShow(theme: Theme) {
        func basic(_ role: ColorRole) -> TerminalColor { theme.color(for: role, availableColors: 8) }
        #expect(basic(.selection) != basic(.background) && basic(.selection) != basic(.surface))
        var faults: [String: String] = [:]
        Self.forEachGlyph { id, x, y, cell in
            let pair = "\(cell.style.foreground) on \(cell.style.background)"
            if basic(cell.style.foreground) == basic(cell.style.background), faults[pair] == nil {
                faults[pair] = "\(pair), first in \(id) at \(x),\(y) \"\(cell.grapheme)\""
            }
        }
        #expect(
            faults.isEmpty, "one colour for glyph and background:\n\(faults.values.sorted().joined(separator: "\n"))")
    }

    /// Every cell of every gallery state at 80×24 that shows a glyph, a colour emoji's excepted (its colours are
    /// its font's).
    static func forEachGlyph(_ body: (_ state: String, _ x: Int, _ y: Int, _ cell: Cell) -> Void) {
        for entry in Gallery.entries {
            let grid = render(entry.makeState(start), size: .standard)
            for y in 0..<grid.size.rows {
                for x in 0..<grid.size.cols {
                    let cell = grid[x, y]
                    guard !cell.isContinuation, cell.grapheme != " ", !ExportSegment.isEmojiGlyph(cell.grapheme)
                    else { continue }
                    body(entry.id, x, y, cell)
                }
            }
        }
    }

    @Test func theRatiosAreWCAGs() {
        #expect(abs(RGB(0, 0, 0).contrast(with: RGB(255, 255, 255)) - 21) < 0.001)
        #expect(RGB(118, 118, 118).contrast(with: RGB(255, 255, 255)) > 4.5)  // #767676, the known AA grey
        #expect(RGB(119, 119, 119).contrast(with: RGB(255, 255, 255)) < 4.5)
        #expect(RGB(10, 20, 30).contrast(with: RGB(10, 20, 30)) == 1)
    }
}
