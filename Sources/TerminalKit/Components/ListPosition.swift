/// Where the selection stands in a long list (the gallery's states, the countries, the journal):
/// moved a row, a page, or to either end, and said as "12 of 199".
public struct ListPosition: Hashable, Sendable {
    public private(set) var selection: Int
    public private(set) var count: Int

    public init(selection: Int = 0, count: Int) {
        self.count = max(0, count)
        self.selection = min(max(0, selection), max(0, count - 1))
    }

    /// How the selection moves.
    public enum Move: Hashable, Sendable { case up, down, pageUp, pageDown, first, last }

    /// `page` is how far a page moves (the rows a list shows, or a fixed step).
    public mutating func move(_ move: Move, page: Int) {
        let last = max(0, count - 1)
        let step = max(1, page)
        switch move {
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(last, selection + 1)
        case .pageUp: selection = max(0, selection - step)
        case .pageDown: selection = min(last, selection + step)
        case .first: selection = 0
        case .last: selection = last
        }
    }

    /// The list changed (a filter): the selection stays where it was, within the new count.
    public mutating func resize(to count: Int) {
        self.count = max(0, count)
        selection = min(selection, max(0, self.count - 1))
    }

    public mutating func select(_ index: Int) {
        guard index >= 0, index < count else { return }
        selection = index
    }

    /// "12 of 199"; "none" for an empty list.
    public var indicator: String { count == 0 ? "none" : "\(selection + 1) of \(count)" }

    /// Draws " 12 of 199 " on the bottom border of a panel drawn in `frame`, right-aligned, so a long list
    /// never hides how long it is.
    public func render(onBottomBorderOf frame: Rect, into grid: inout CellGrid, style: Style) {
        guard frame.width > 6, frame.height > 0 else { return }
        let label = TextLayout.truncate(" \(indicator) ", width: frame.width - 4)
        grid.put(label, at: Point(x: frame.maxX - 2 - DisplayWidth.of(label), y: frame.maxY - 1), style: style)
    }

    /// The first row to show in a window of `rows` so the selection is in it, scrolling as little as
    /// possible from `current`.
    public func firstShown(rows: Int, current: Int = 0) -> Int {
        guard rows > 0, count > rows else { return 0 }
        var first = min(current, count - rows)
        if selection < first { first = selection }
        if selection >= first + rows { first = selection - rows + 1 }
        return max(0, first)
    }
}

extension KeyHint {
    /// Home/End (g/G) to the ends of a long list.
    public static let ends = KeyHint(
        [.home, .end], "First/last", inFooter: false, aliases: [.character("g"), .character("G")])
    /// PgUp/PgDn a page.
    public static let page = KeyHint([.pageUp, .pageDown], "Page", inFooter: false)
}

extension KeyBinding {
    /// The keys of a long list: ↑/↓ (k/j) a row, PgUp/PgDn a page, Home/End (g/G) to the ends; `typing`
    /// when letters are text there (then k/j/g/G are left to the field). `moves` names ↑/↓ ("Choose" on a
    /// panel whose Enter uses the row).
    public static func longList(
        typing: Bool = false, moves: String = "Move", _ intent: (ListPosition.Move) -> Intent
    ) -> [KeyBinding] {
        let move =
            typing
            ? KeyHint([.up, .down], moves)
            : KeyHint([.up, .down], moves, aliases: [.character("k"), .character("j")])
        var rows: [Key: Intent] = [.up: intent(.up), .down: intent(.down)]
        var ends: [Key: Intent] = [.home: intent(.first), .end: intent(.last)]
        var endsHint = KeyHint.ends
        if typing {
            endsHint.aliases = []
        } else {
            rows[.character("k")] = intent(.up)
            rows[.character("j")] = intent(.down)
            ends[.character("g")] = intent(.first)
            ends[.character("G")] = intent(.last)
        }
        return [
            KeyBinding(move, intents: rows),
            KeyBinding(.page, intents: [.pageUp: intent(.pageUp), .pageDown: intent(.pageDown)]),
            KeyBinding(endsHint, intents: ends),
        ]
    }
}
