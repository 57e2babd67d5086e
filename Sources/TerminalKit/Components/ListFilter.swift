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

    /// "/ query" (the placeholder while nothing is typed).
    public func render(into grid: inout CellGrid, at point: Point, width: Int, style: Style) {
        let prompt = "/ "
        let end = grid.put(prompt, at: point, style: style.with(.bold), maxX: point.x + width)
        let shown = query.isEmpty && isEditing ? field.placeholder : query
        var text = style
        if query.isEmpty { text.foreground = .muted }
        grid.put(
            TextLayout.truncate(shown, width: max(0, point.x + width - end)), at: Point(x: end, y: point.y),
            style: text, maxX: point.x + width)
    }
}

extension KeyHint {
    /// `/` opens a long list's filter.
    public static let filter = KeyHint([.character("/")], "Filter")
}
