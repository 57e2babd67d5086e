/// A sheet over the bottom of the screen: title, word-wrapped body, one or two stacked actions.
/// The screen below stays visible, dimmed.
public struct BottomSheet: Hashable, Sendable {
    public struct Action: Hashable, Sendable {
        public var title: String
        /// Drawn in danger colour and bold; the label itself says what happens ("Delete account").
        public var isDestructive: Bool
        public init(_ title: String, isDestructive: Bool = false) {
            self.title = title
            self.isDestructive = isDestructive
        }
    }

    /// A mark before the title, drawn in danger colour: the delete confirmation's trash can.
    public enum Icon: Hashable, Sendable {
        case trash

        public func glyph(_ glyphs: Glyphs) -> String {
            switch self {
            case .trash: return glyphs.trash
            }
        }
    }

    public var title: String
    public var body: String
    public var actions: [Action]
    public var icon: Icon?
    public private(set) var selectedAction: Int

    public init(title: String, body: String, actions: [Action], icon: Icon? = nil, selectedAction: Int = 0) {
        self.title = title
        self.body = body
        self.actions = actions
        self.icon = icon
        self.selectedAction = min(max(0, selectedAction), max(0, actions.count - 1))
    }

    public mutating func move(by offset: Int) {
        guard !actions.isEmpty else { return }
        selectedAction = min(max(0, selectedAction + offset), actions.count - 1)
    }

    public var selected: Action? { actions.isEmpty ? nil : actions[selectedAction] }

    /// Selects action `index` (a click on it).
    public mutating func select(_ index: Int) {
        guard actions.indices.contains(index) else { return }
        selectedAction = index
    }

    /// Where each action is drawn in `frame` (the render places them there, a click finds them there);
    /// actions cut off by a short frame are left out.
    public func actionRows(in frame: Rect) -> [Rect] {
        let content = frame.inset(horizontal: 3, vertical: 2)
        // The title, a blank line, the body, a blank line.
        var y = content.y + 1 + 1 + TextLayout.wrap(body, width: content.width).count + 1
        var rows: [Rect] = []
        for _ in actions {
            guard y < frame.maxY - 1 else { break }
            rows.append(Rect(x: content.x - 2, y: y, width: content.width + 2, height: 1))
            y += 1
        }
        return rows
    }

    /// The rectangle the sheet takes in a grid of this size: the width of a column at most `maxWidth` wide and
    /// centred, less the margins, pinned to the bottom, as tall as its content (at most the grid). At 160 columns
    /// a sheet across the whole width sat under content 96 wide (issue 50).
    public func frame(in size: Size, maxWidth: Int = .max) -> Rect {
        let column = min(size.cols, maxWidth)
        let width = max(0, column - 4)
        let bodyLines = TextLayout.wrap(body, width: max(1, width - 6)).count
        // Border, padding, title, blank, body, blank, actions, padding, border.
        let height = 1 + 1 + 1 + 1 + bodyLines + 1 + actions.count + 1 + 1
        let h = min(height, size.rows)
        return Rect(x: (size.cols - column) / 2 + 2, y: size.rows - h, width: width, height: h)
    }

    /// Dims the whole grid, then draws the sheet over its bottom.
    public func render(into grid: inout CellGrid, glyphs: Glyphs = .unicode, maxWidth: Int = .max) {
        let frame = frame(in: grid.size, maxWidth: maxWidth)
        grid.dim(except: frame)
        guard frame.width >= 8, frame.height >= 3 else { return }
        let surface = Style.plain.on(.surface)
        grid.fill(frame, style: surface)
        grid.drawBox(frame, lines: glyphs.box, style: Style.border.on(.surface))
        let content = frame.inset(horizontal: 3, vertical: 2)
        var y = content.y
        func line(_ text: String, _ style: Style) {
            guard y < frame.maxY - 1 else { return }
            grid.put(TextLayout.truncate(text, width: content.width), at: Point(x: content.x, y: y), style: style)
            y += 1
        }
        if let icon {
            let mark = icon.glyph(glyphs)
            let danger = Style.danger.on(.surface).with(.bold)
            let end = grid.put(mark, at: Point(x: content.x, y: y), style: danger, maxX: content.maxX)
            // Two columns after the mark: an emoji a terminal draws wider still leaves a gap.
            let titleX = end + 2
            grid.put(
                TextLayout.truncate(title, width: max(0, content.maxX - titleX)), at: Point(x: titleX, y: y),
                style: surface.with(.bold))
            y += 1
        } else {
            line(title, surface.with(.bold))
        }
        y += 1
        for text in TextLayout.wrap(body, width: content.width) { line(text, surface) }
        for (index, row) in actionRows(in: frame).enumerated() {
            let action = actions[index]
            let isSelected = index == selectedAction
            var style = isSelected ? Style.plain.on(.selection) : surface
            if action.isDestructive {
                style.foreground = .danger
                style.attributes.insert(.bold)
            }
            if isSelected {
                grid.fill(row, style: style)
                grid.put(glyphs.selected, at: Point(x: row.x, y: row.y), style: style.with(.bold))
            }
            grid.put(
                TextLayout.truncate(action.title, width: content.width), at: Point(x: content.x, y: row.y),
                style: style)
        }
    }
}
