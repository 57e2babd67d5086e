/// The `/` filter of a long list: a one-line query typed under the list's heading; an entry stays when
/// every word of the query is in one of its texts, case ignored.
public struct ListFilter: Hashable, Sendable {
    public private(set) var field = TextField(placeholder: "type to filter", isFocused: true, maxLength: 60)
    /// Keys go to the query (after `/`, until Enter or Esc).
    public var isEditing = false

    public init(query: String = "", isEditing: Bool = false) {
        field.setValue(query)
        self.isEditing = isEditing
    }

    public var query: String { field.value }
    /// Shown and narrowing the list.
    public var isActive: Bool { isEditing || !query.isEmpty }

    /// Typing into the query; false when the event is not typing.
    public mutating func edit(_ event: InputEvent) -> Bool { field.handle(event) }

    public mutating func clear() {
        field.setValue("")
        isEditing = false
    }

    public func matches(_ texts: [String]) -> Bool {
        let words = query.lowercased().split(separator: " ")
        guard !words.isEmpty else { return true }
        let haystack = texts.map { $0.lowercased() }
        return words.allSatisfy { word in haystack.contains { $0.contains(word) } }
    }

    /// "3 of 40 match": how many entries of the whole list the query keeps.
    public static func count(_ matched: Int, of total: Int) -> String { "\(matched) of \(total) match" }

    /// "/ query" (the placeholder while nothing is typed) and, given the counts, "3 of 40 match" at the
    /// right end with at least a space between the two (the query is cut first).
    public func render(
        into grid: inout CellGrid, at point: Point, width: Int, style: Style, matched: Int? = nil, of total: Int? = nil
    ) {
        var maxX = point.x + width
        if let matched, let total {
            let count = Self.count(matched, of: total)
            let countWidth = DisplayWidth.of(count)
            // Only when the prompt, a character of the query and a space still fit beside it.
            if width - countWidth >= 4 {
                var muted = style
                muted.foreground = .muted
                grid.put(count, at: Point(x: maxX - countWidth, y: point.y), style: muted)
                maxX -= countWidth + 1
            }
        }
        let prompt = "/ "
        let end = grid.put(prompt, at: point, style: style.with(.bold), maxX: maxX)
        let shown = query.isEmpty && isEditing ? field.placeholder : query
        var text = style
        if query.isEmpty { text.foreground = .muted }
        grid.put(
            TextLayout.truncate(shown, width: max(0, maxX - end)), at: Point(x: end, y: point.y), style: text,
            maxX: maxX)
    }
}

extension KeyHint {
    /// `/` opens a long list's filter.
    public static let filter = KeyHint([.character("/")], "Filter")
}
