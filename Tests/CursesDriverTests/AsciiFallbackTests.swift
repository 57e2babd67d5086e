import TerminalKit
import Testing

@Suite struct AsciiFallbackTests {
    @Test func flagBecomesItsIsoCode() {
        #expect(AsciiFallback.replacement(for: "🇬🇪", width: 2) == "GE")
        #expect(AsciiFallback.replacement(for: "🇺🇸", width: 2) == "US")
    }

    @Test(arguments: Array("─│┌┐└┘╭╮╰╯├┤┬┴┼━┃┏┓┗┛┣┫┳┻╋═║╔╗╚╝╠╣╦╩╬"))
    func boxDrawing(character: Character) {
        let replacement = AsciiFallback.replacement(for: String(character), width: 1)
        #expect(["-", "|", "+"].contains(replacement))
    }

    @Test func linesAndCorners() {
        #expect(AsciiFallback.replacement(for: "─", width: 1) == "-")
        #expect(AsciiFallback.replacement(for: "═", width: 1) == "-")
        #expect(AsciiFallback.replacement(for: "│", width: 1) == "|")
        #expect(AsciiFallback.replacement(for: "┃", width: 1) == "|")
        #expect(AsciiFallback.replacement(for: "╭", width: 1) == "+")
        #expect(AsciiFallback.replacement(for: "┼", width: 1) == "+")
    }

    @Test func lookalikes() {
        let expected: [String: String] = [
            "•": "*", "›": ">", "‹": "<", "▸": ">", "←": "<", "→": ">", "↑": "^", "↓": "v", "✎": "/", "✓": "v",
            "░": "#",
        ]
        for (symbol, ascii) in expected {
            #expect(AsciiFallback.replacement(for: symbol, width: 1) == ascii, "\(symbol)")
        }
    }

    @Test func ellipsisIsCutToItsOneColumn() {
        #expect(AsciiFallback.replacement(for: "…", width: 1) == ".")
        #expect(AsciiFallback.replacement(for: "…", width: 3) == "...")
    }

    @Test func unknownNonAsciiIsQuestionMarksOfTheSameWidth() {
        #expect(AsciiFallback.replacement(for: "日", width: 2) == "??")
        #expect(AsciiFallback.replacement(for: "👍", width: 2) == "??")
        #expect(AsciiFallback.replacement(for: "ж", width: 1) == "?")
    }

    @Test func asciiStaysAndLosesItsAccents() {
        #expect(AsciiFallback.replacement(for: "a", width: 1) == "a")
        #expect(AsciiFallback.replacement(for: "e\u{301}", width: 1) == "e")
    }

    @Test(arguments: ["🇬🇪", "日", "👍", "─", "╯", "•", "…", "→", "✎", "✓", "░", "€", "ж", "é", "q", " "])
    func widthIsPreserved(grapheme: String) {
        let character = Character(grapheme)
        let width = DisplayWidth.of(character)
        let replacement = AsciiFallback.replacement(for: grapheme, width: width)
        #expect(replacement.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(replacement.count == width)
        #expect(DisplayWidth.of(replacement) == width)
    }

    @Test func gridKeepsEveryColumnInPlace() {
        var grid = CellGrid(size: Size(cols: 20, rows: 2))
        grid.put("╭─ 🇬🇪 Georgia ─╮", at: Point(x: 0, y: 0), style: .border)
        grid.put("• 日本 → ok…", at: Point(x: 0, y: 1), style: .bold)
        let ascii = grid.asciiFallback()
        #expect(ascii.textLines() == ["+- GE Georgia -+", "* ???? > ok."])
        #expect(ascii.size == grid.size)
        #expect(ascii[0, 1].style == .bold)
        for y in 0..<2 {
            for x in 0..<20 { #expect(ascii[x, y].width == 1) }
        }
    }
}
