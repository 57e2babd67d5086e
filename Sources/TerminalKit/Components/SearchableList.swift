import Foundation

/// A full-screen pick list with a search field on top (the country picker): section headers,
/// three absolutely positioned columns, selection, scrolling, and an optional footer line.
///
/// With an empty query the sections are shown as given; with a query, the matches of all
/// sections are shown once each (by id) under no header, the closest first: an item one of whose
/// keys is the query ("de", Germany's code), then those with a key that starts with it ("Denmark"),
/// then those with a word that does; within each, in their original order.
public struct SearchableList: Hashable, Sendable {
    public struct Item: Hashable, Sendable, Identifiable {
        public var id: String
        /// The leading column: a flag, or an ISO code in ASCII mode.
        public var leading: String
        public var title: String
        /// The trailing column, right-aligned: a dial code.
        public var trailing: String
        /// Everything a query may match: name, ISO code, dial code, other names.
        public let searchKeys: [String]
        /// The normalized keys and each of their words: a query matches when one of these starts with it.
        /// Made once here, because normalizing (Foundation's folding) every key on every keystroke took
        /// several milliseconds over 245 countries.
        let prefixes: [String]
        /// The normalized keys whole, for telling an exact or leading match from a match of a later word.
        let keys: [String]

        public init(id: String, leading: String, title: String, trailing: String, searchKeys: [String]) {
            self.id = id
            self.leading = leading
            self.title = title
            self.trailing = trailing
            self.searchKeys = searchKeys
            prefixes = searchKeys.flatMap(SearchableList.matchPrefixes)
            keys = searchKeys.map(SearchableList.normalize)
        }

        /// How closely a normalized query matches: 0 a whole key, 1 a key's start, 2 a later word's start;
        /// nil for no match.
        func closeness(to needle: String) -> Int? {
            if keys.contains(needle) { return 0 }
            if keys.contains(where: { $0.hasPrefix(needle) }) { return 1 }
            return prefixes.contains(where: { $0.hasPrefix(needle) }) ? 2 : nil
        }
    }

    public struct Section: Hashable, Sendable {
        public var title: String
        public var items: [Item]
        public init(_ title: String, items: [Item]) {
            self.title = title
            self.items = items
        }
    }

    /// One drawn line of the list body.
    public enum Line: Hashable, Sendable {
        case header(String)
        case spacer
        case item(Item, index: Int)
    }

    public var sections: [Section]
    public var search: TextField
    public var emptyMessage: String
    public var footer: String?
    public private(set) var selectedIndex: Int = 0
    /// First body line drawn; `render` adjusts it further if the selection would be hidden.
    public private(set) var scrollOffset: Int = 0

    public init(
        sections: [Section], searchPlaceholder: String = "Search", emptyMessage: String = "No results",
        footer: String? = nil
    ) {
        self.sections = sections
        self.search = TextField(placeholder: searchPlaceholder, isFocused: true, maxLength: Self.maxQueryLength)
        self.emptyMessage = emptyMessage
        self.footer = footer
    }

    public var query: String { search.value }

    /// Longer than any name a query could match (the longest, "Saint Helena, Ascension and Tristan da Cunha", is 44).
    public static let maxQueryLength = 64

    public mutating func setQuery(_ query: String) {
        search.setValue(query)
        selectedIndex = 0
        scrollOffset = 0
    }

    /// Routes an event to the search field (typing) or the selection (arrows, pages). Returns
    /// false for keys the list does not use, such as Enter and Esc.
    @discardableResult
    public mutating func handle(_ event: InputEvent, pageSize: Int = 10) -> Bool {
        switch event {
        case .key(.up): move(by: -1)
        case .key(.down): move(by: 1)
        case .key(.pageUp): move(by: -pageSize)
        case .key(.pageDown): move(by: pageSize)
        default:
            let before = search.value
            guard search.handle(event) else { return false }
            if search.value != before {
                selectedIndex = 0
                scrollOffset = 0
            }
        }
        return true
    }

    /// The items shown for the current query, in order; selection indexes into this.
    public var visibleItems: [Item] {
        let needle = Self.normalize(query)
        if needle.isEmpty { return sections.flatMap(\.items) }
        var seen = Set<String>()
        var ranked: [[Item]] = [[], [], []]
        for item in sections.flatMap(\.items) where !seen.contains(item.id) {
            if let closeness = item.closeness(to: needle) {
                seen.insert(item.id)
                ranked[closeness].append(item)
            }
        }
        return ranked.flatMap { $0 }
    }

    public var selectedItem: Item? {
        let items = visibleItems
        return items.isEmpty ? nil : items[min(selectedIndex, items.count - 1)]
    }

    public mutating func move(by offset: Int) {
        let count = visibleItems.count
        guard count > 0 else { return }
        selectedIndex = min(max(0, min(selectedIndex, count - 1) + offset), count - 1)
    }

    /// A long list's move (`KeyBinding.longList`): a row, `page` rows, or to either end.
    public mutating func move(_ move: ListPosition.Move, page: Int) {
        var position = self.position
        position.move(move, page: page)
        selectedIndex = position.selection
    }

    /// Where the selection stands: "12 of 249".
    public var position: ListPosition { ListPosition(selection: selectedIndex, count: visibleItems.count) }

    /// Scrolls as little as possible so the selected line is inside `rows` body lines.
    public mutating func ensureSelectionVisible(rows: Int) {
        scrollOffset = Self.offset(current: scrollOffset, lines: lines, selected: selectedIndex, rows: rows)
    }

    /// The body as drawn before scrolling: headers, spacers and items.
    public var lines: [Line] {
        var result: [Line] = []
        var index = 0
        if query.isEmpty {
            for section in sections where !section.items.isEmpty {
                if !result.isEmpty { result.append(.spacer) }
                result.append(.header(section.title))
                for item in section.items {
                    result.append(.item(item, index: index))
                    index += 1
                }
            }
        } else {
            for item in visibleItems {
                result.append(.item(item, index: index))
                index += 1
            }
        }
        return result
    }

    static func offset(current: Int, lines: [Line], selected: Int, rows: Int) -> Int {
        guard rows > 0, !lines.isEmpty else { return 0 }
        let maxOffset = max(0, lines.count - rows)
        guard
            let line = lines.firstIndex(where: {
                if case .item(_, let i) = $0 { return i == selected }
                return false
            })
        else { return min(current, maxOffset) }
        var offset = min(current, maxOffset)
        // Keep the section header in view when the selection is the first row under it.
        let top = line >= 1 && lines[line - 1] != .spacer && !isItem(lines[line - 1]) ? line - 1 : line
        if top < offset { offset = top }
        if line >= offset + rows { offset = line - rows + 1 }
        return offset
    }

    private static func isItem(_ line: Line) -> Bool {
        if case .item = line { return true }
        return false
    }

    /// Case- and diacritic-insensitive; "+" and spaces ignored so "995", "+995" and "+ 995" agree.
    static func normalize(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .filter { $0 != "+" }
            .trimmingCharacters(in: .whitespaces)
    }

    /// What a query is matched against: the normalized key, then each of its words. A key matches when it,
    /// or one of its words, starts with the query: "ge" finds Georgia and Germany but not Argentina.
    static func matchPrefixes(_ key: String) -> [String] {
        let key = normalize(key)
        let words = key.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "(" || $0 == "," })
        return [key] + words.map(String.init)
    }

    // MARK: Drawing

    /// Widest leading column, in display columns (flags are 2; ISO codes may be 2 or 3).
    public var leadingWidth: Int = 3

    /// What a render drew where: the search cursor, and each item row shown (for a click to find it).
    public struct Drawn: Equatable, Sendable {
        public var cursor: Point?
        public var rows: [Rect] = []
        /// Which of `rows` is the selected item, when it is shown.
        public var selectedRow: Int?

        public init(cursor: Point? = nil) { self.cursor = cursor }
    }

    /// Draws the search field, the body and the footer in `rect`.
    @discardableResult
    public func render(into grid: inout CellGrid, in rect: Rect, glyphs: Glyphs = .unicode) -> Drawn {
        guard rect.width >= 10, rect.height >= 4 else { return Drawn() }
        let content = rect.inset(horizontal: 2)
        let cursor = search.render(
            into: &grid, in: Rect(x: content.x, y: rect.y, width: content.width, height: 3), glyphs: glyphs)
        var body = Rect(x: rect.x, y: rect.y + 4, width: rect.width, height: rect.height - 4)
        if let footer, body.height > 2 {
            let split = body.splitBottom(2)
            body = split.rest
            grid.putCentered(footer, row: split.bottom.maxY - 1, in: content, style: .muted)
        }
        var drawn = Drawn(cursor: cursor)
        // Where the selection stands, right-aligned under the search box.
        if position.count > 0 {
            grid.putRight(position.indicator, endingAt: content.maxX, row: rect.y + 3, style: .muted)
        }
        let all = lines
        if all.isEmpty {
            grid.putCentered(emptyMessage, row: body.y + 1, in: content, style: .muted)
            return drawn
        }
        let offset = Self.offset(current: scrollOffset, lines: all, selected: selectedIndex, rows: body.height)
        for (row, line) in all.dropFirst(offset).prefix(body.height).enumerated() {
            let y = body.y + row
            switch line {
            case .spacer:
                break
            case .header(let title):
                grid.put(
                    TextLayout.truncate(title, width: content.width), at: Point(x: content.x, y: y),
                    style: Style.muted.with(.bold))
            case .item(let item, let index):
                if index == selectedIndex { drawn.selectedRow = drawn.rows.count }
                drawn.rows.append(Rect(x: rect.x, y: y, width: rect.width - 1, height: 1))
                drawItem(item, selected: index == selectedIndex, y: y, in: rect, into: &grid, glyphs: glyphs)
            }
        }
        if offset > 0 { grid.putRight(glyphs.moreAbove, endingAt: rect.maxX, row: body.y, style: .muted) }
        if offset + body.height < all.count {
            grid.putRight(glyphs.moreBelow, endingAt: rect.maxX, row: body.maxY - 1, style: .muted)
        }
        return drawn
    }

    private func drawItem(
        _ item: Item, selected: Bool, y: Int, in rect: Rect, into grid: inout CellGrid, glyphs: Glyphs
    ) {
        var style = Style.plain
        if selected {
            style = style.on(.selection)
            grid.fill(Rect(x: rect.x, y: y, width: rect.width - 1, height: 1), style: style)
            grid.put(glyphs.selected, at: Point(x: rect.x, y: y), style: style.with(.bold))
        }
        // Each column starts at a fixed x whatever the width the terminal gives the flag.
        let leadX = rect.x + 2
        let titleX = leadX + leadingWidth + 2
        let right = rect.maxX - 3
        let trailingX = right - DisplayWidth.of(item.trailing)
        grid.put(item.leading, at: Point(x: leadX, y: y), style: style, maxX: titleX - 1)
        grid.put(
            TextLayout.truncate(item.title, width: trailingX - 2 - titleX), at: Point(x: titleX, y: y),
            style: selected ? style.with(.bold) : style, maxX: trailingX - 1)
        var trailingStyle = style
        trailingStyle.foreground = .muted
        grid.put(item.trailing, at: Point(x: trailingX, y: y), style: trailingStyle, maxX: right)
    }
}
