/// A labelled one-line text field in a box, with its editing logic.
///
/// The cursor counts grapheme clusters (what the arrow keys step over); drawing measures
/// display width. Focus is shown by a heavy border and disabled by a dashed one, so neither
/// depends on colour; an error is shown under the box, wrapped to as many lines as it needs.
public struct TextField: Hashable, Sendable {
    public var label: String
    public private(set) var value: String
    /// Position in `value`, in characters: 0 is before the first one.
    public private(set) var cursor: Int
    public var placeholder: String
    /// Shown before the value inside the box and not editable, e.g. the country chip "🇬🇪 +995".
    public var prefix: String?
    public var isMasked: Bool
    public var error: String?
    public var isDisabled: Bool
    public var isFocused: Bool
    public var maxLength: Int?

    public init(
        label: String = "", value: String = "", placeholder: String = "", prefix: String? = nil,
        isMasked: Bool = false, error: String? = nil, isDisabled: Bool = false, isFocused: Bool = false,
        maxLength: Int? = nil
    ) {
        self.label = label
        self.value = value
        self.cursor = value.count
        self.placeholder = placeholder
        self.prefix = prefix
        self.isMasked = isMasked
        self.error = error
        self.isDisabled = isDisabled
        self.isFocused = isFocused
        self.maxLength = maxLength
    }

    /// Rows used: the label (when there is one), the three rows of the box, one error line.
    public var height: Int { (label.isEmpty ? 0 : 1) + 4 }

    /// Rows used drawn `width` columns wide: the error takes as many lines as it wraps to (one
    /// when there is none), so a long server message is read whole, not cut at the edge.
    public func height(width: Int) -> Int { (label.isEmpty ? 0 : 1) + 3 + max(1, errorLines(width: width).count) }

    /// The error, wrapped at `width`.
    public func errorLines(width: Int) -> [String] {
        error.map { TextLayout.wrap($0, width: max(1, width)) } ?? []
    }

    // MARK: Editing

    public mutating func setValue(_ text: String) {
        value = Self.clean(text)
        if let maxLength { value = String(value.prefix(maxLength)) }
        cursor = value.count
    }

    /// Replaces the text with the caret at `cursor` (a field that formats what is typed keeps the caret
    /// after the same character it followed).
    public mutating func setValue(_ text: String, cursor: Int) {
        setValue(text)
        self.cursor = min(max(0, cursor), value.count)
    }

    /// Inserts text at the cursor, dropping control characters and newlines and stopping at
    /// `maxLength`.
    public mutating func insert(_ text: String) {
        guard !isDisabled else { return }
        var incoming = Self.clean(text)
        if let maxLength { incoming = String(incoming.prefix(max(0, maxLength - value.count))) }
        guard !incoming.isEmpty else { return }
        let index = value.index(value.startIndex, offsetBy: cursor)
        value.insert(contentsOf: incoming, at: index)
        cursor += incoming.count
    }

    /// A paste is an insert: newlines and control characters never reach a one-line field.
    public mutating func paste(_ text: String) { insert(text) }

    public mutating func backspace() {
        guard !isDisabled, cursor > 0 else { return }
        value.remove(at: value.index(value.startIndex, offsetBy: cursor - 1))
        cursor -= 1
    }

    public mutating func deleteForward() {
        guard !isDisabled, cursor < value.count else { return }
        value.remove(at: value.index(value.startIndex, offsetBy: cursor))
    }

    /// Readline's Ctrl+U: everything before the cursor goes.
    public mutating func deleteToStart() {
        guard !isDisabled else { return }
        value.removeFirst(cursor)
        cursor = 0
    }

    /// Readline's Ctrl+K: everything from the cursor on goes.
    public mutating func deleteToEnd() {
        guard !isDisabled else { return }
        value.removeLast(value.count - cursor)
    }

    /// Readline's Ctrl+W: the word before the cursor goes, with the spaces after it; a word ends at a space.
    public mutating func deleteWordBackward() {
        guard !isDisabled else { return }
        let before = Array(value.prefix(cursor))
        var start = before.count
        while start > 0, before[start - 1] == " " { start -= 1 }
        while start > 0, before[start - 1] != " " { start -= 1 }
        value = String(before[..<start]) + value.dropFirst(cursor)
        cursor = start
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(value.count, cursor + 1) }
    public mutating func moveHome() { cursor = 0 }
    public mutating func moveEnd() { cursor = value.count }

    /// Applies an editing key; returns false for keys the field does not use (so the screen can).
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .paste(let text): paste(text)
        case .key(.character(let c)): insert(String(c))
        case .key(.backspace): backspace()
        case .key(.delete): deleteForward()
        case .key(.left): moveLeft()
        case .key(.right): moveRight()
        case .key(.home), .key(.control("a")): moveHome()
        case .key(.end), .key(.control("e")): moveEnd()
        case .key(.control("u")): deleteToStart()
        case .key(.control("k")): deleteToEnd()
        case .key(.control("w")): deleteWordBackward()
        default: return false
        }
        return true
    }

    static func clean(_ text: String) -> String {
        String(
            text.filter { character in
                !character.unicodeScalars.contains(where: ControlCharacters.isUnsafe)
            })
    }

    // MARK: Drawing

    /// Draws the field; returns where the terminal cursor belongs when the field is focused.
    @discardableResult
    public func render(into grid: inout CellGrid, in rect: Rect, glyphs: Glyphs = .unicode) -> Point? {
        guard rect.width >= 6, rect.height > 0 else { return nil }
        var y = rect.y
        if !label.isEmpty {
            let style: Style = isDisabled ? .muted : (isFocused ? .bold : .plain)
            grid.put(TextLayout.truncate(label, width: rect.width), at: Point(x: rect.x, y: y), style: style)
            y += 1
        }
        guard y + 3 <= rect.maxY else { return nil }
        let box = Rect(x: rect.x, y: y, width: rect.width, height: 3)
        let lines = isDisabled ? glyphs.disabledBox : (isFocused ? glyphs.focusBox : glyphs.box)
        var borderStyle: Style = error != nil ? .danger : (isFocused ? .accent : .border)
        if isDisabled { borderStyle = Style.border.with(.dim) }
        grid.drawBox(box, lines: lines, style: borderStyle)

        var x = box.x + 2
        let maxX = box.maxX - 2
        let textY = box.y + 1
        if let prefix {
            x = grid.put(prefix, at: Point(x: x, y: textY), style: isDisabled ? .muted : .plain, maxX: maxX)
            x = grid.put(" " + String(lines.vertical) + " ", at: Point(x: x, y: textY), style: borderStyle, maxX: maxX)
        }
        var cursorPoint: Point?
        if value.isEmpty {
            grid.put(
                TextLayout.truncate(placeholder, width: maxX - x), at: Point(x: x, y: textY),
                style: .muted, maxX: maxX)
            cursorPoint = Point(x: x, y: textY)
        } else {
            let shown = isMasked ? Array(repeating: Character(glyphs.bullet), count: value.count) : Array(value)
            let start = Self.scrollStart(shown, cursor: cursor, width: maxX - x)
            var cx = x
            for (i, character) in shown.enumerated().dropFirst(start) {
                if i == cursor { cursorPoint = Point(x: cx, y: textY) }
                let next = grid.put(
                    String(character), at: Point(x: cx, y: textY), style: isDisabled ? .muted : .plain, maxX: maxX)
                if next == cx { break }
                cx = next
            }
            if cursorPoint == nil { cursorPoint = Point(x: cx, y: textY) }
        }
        if isFocused, !isDisabled, let point = cursorPoint, point.x < maxX {
            grid.restyle(Rect(x: point.x, y: point.y, width: 1, height: 1)) { $0.attributes.insert(.reverse) }
        }
        for (offset, line) in errorLines(width: rect.width).enumerated() where box.maxY + offset < rect.maxY {
            grid.put(line, at: Point(x: rect.x, y: box.maxY + offset), style: Style.danger.with(.bold))
        }
        return isFocused && !isDisabled ? cursorPoint : nil
    }

    /// First character to draw so the cursor (and one cell after it) fits in `width` columns. One pass: the
    /// window's width is kept as it slides, so a long value costs its length, not its square.
    static func scrollStart(_ characters: [Character], cursor: Int, width: Int) -> Int {
        var used = characters[..<cursor].reduce(0) { $0 + DisplayWidth.of($1) }
        var start = 0
        while start < cursor, used >= width {
            used -= DisplayWidth.of(characters[start])
            start += 1
        }
        return start
    }
}
