import TerminalKit

/// What `accessdeck play` prints when an `expect` or `expect-not` fails: the screen as drawn, row
/// by row, and beside it the tape's text, at the row and column where the screen comes closest to
/// it, with `^` under each character that differs. For `expect-not`, the row that holds the text,
/// with `^` under it. The row is marked `>` in the margin.
public enum ExpectReport {
    public static func render(_ screen: CellGrid, check: Tape.Step) -> String {
        let rows = (0..<screen.size.rows).map { y in
            (0..<screen.size.cols).compactMap { x in
                screen[x, y].isContinuation ? nil : Character(screen[x, y].grapheme)
            }
        }
        let text: [Character]
        let heading: String
        switch check {
        case .expect(let expected), .expectTitle(let expected), .expectRow(let expected):
            text = Array(expected)
            heading = "expected"
        case .expectNot(let unwanted):
            text = Array(unwanted)
            heading = "not expected"
        default:
            return ""
        }
        let match = closest(text, in: rows)
        let numberWidth = String(screen.size.rows).count
        // "> 12 │ " before each row: the mark, the row's number, a rule.
        let gutter = numberWidth + 5
        let leftWidth = gutter + screen.size.cols
        func pad(_ line: String) -> String {
            line + String(repeating: " ", count: max(0, leftWidth - DisplayWidth.of(line)))
        }
        var lines = [pad(String(repeating: " ", count: gutter) + "screen as drawn") + " │ " + heading]
        for (y, row) in rows.enumerated() {
            let number = String(y + 1)
            let mark = y == match.row ? ">" : " "
            let left =
                mark + " " + String(repeating: " ", count: numberWidth - number.count) + number + " │ " + String(row)
            guard y == match.row else {
                lines.append(pad(left) + " │")
                continue
            }
            // The text starts at the column where it lines up with the row.
            let indent = String(repeating: " ", count: DisplayWidth.of(String(row.prefix(match.offset))))
            lines.append(pad(left) + " │ " + indent + String(text))
            var marks = ""
            for (index, character) in text.enumerated() {
                let onScreen = match.offset + index < row.count ? row[match.offset + index] : nil
                // expect marks what is not there; expect-not marks what is.
                let mark: Character = (onScreen != character) != isNot(check) ? "^" : " "
                marks += String(repeating: String(mark), count: max(1, DisplayWidth.of(character)))
            }
            lines.append(pad(String(repeating: " ", count: numberWidth + 3) + "│") + " │ " + indent + marks)
        }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n") + "\n"
    }

    private static func isNot(_ check: Tape.Step) -> Bool {
        if case .expectNot = check { return true }
        return false
    }

    /// The row and character offset where the most characters of `text` line up with the screen;
    /// the first such place when several tie.
    static func closest(_ text: [Character], in rows: [[Character]]) -> (row: Int, offset: Int) {
        var best = (row: 0, offset: 0, score: -1)
        for (y, row) in rows.enumerated() {
            for offset in 0..<max(1, row.count) {
                var score = 0
                for (index, character) in text.enumerated() where offset + index < row.count {
                    if row[offset + index] == character { score += 1 }
                }
                if score > best.score { best = (y, offset, score) }
            }
        }
        return (best.row, best.offset)
    }
}
