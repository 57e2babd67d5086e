import SnapshotSupport
import Testing

@testable import TerminalKit

let sampleKeymap = Keymap([
    KeyHint([.up, .down], "Move"),
    KeyHint([.enter], "Open"),
    KeyHint([.escape], "Back"),
    KeyHint([.character("?")], "Help"),
    KeyHint([.control("r")], "Refresh", inFooter: false),
    KeyHint([.character("q"), .control("c")], "Quit", inFooter: false),
])

@Suite struct KeyHintFooterTests {
    @Test func footerText() {
        #expect(KeyHintFooter(sampleKeymap).text() == "↑↓ Move  Enter Open  Esc Back  ? Help")
    }

    @Test func snapshot() {
        var grid = canvas(80, 1)
        KeyHintFooter(sampleKeymap).render(into: &grid, in: grid.bounds)
        #expect(grid[2, 0].style.attributes.contains(.bold))
        assertSnapshot(of: grid, named: "footer")
    }

    @Test func truncatedWithEllipsis() {
        var grid = canvas(30, 1)
        KeyHintFooter(sampleKeymap).render(into: &grid, in: grid.bounds)
        let line = grid.textLines()[0]
        #expect(line == "  ↑↓ Move  Enter Open  …")
        #expect(DisplayWidth.of(line) <= 28)
        var tiny = canvas(8, 1)
        KeyHintFooter(sampleKeymap).render(into: &tiny, in: tiny.bounds)
        #expect(tiny.textLines() == ["  …"])
    }

    @Test func asciiNamesTheArrows() {
        #expect(KeyHintFooter(sampleKeymap).text(glyphs: .ascii) == "Up/Down Move  Enter Open  Esc Back  ? Help")
    }

    @Test func nonArrowAlternativesKeepTheSlash() {
        #expect(KeyHintFooter.label(for: KeyHint([.character("q"), .control("c")], "Quit")) == "q/Ctrl+C")
    }
}
