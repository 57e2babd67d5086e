/// One row of a list such as the Account Access hub: title, optional muted detail line and a
/// control at the right.
///
/// The control is right-aligned at a fixed column whatever the title's width, because
/// terminals disagree on how wide a flag emoji is.
public struct ListRow: Hashable, Sendable {
    public enum Control: Hashable, Sendable {
        case none
        case pencil
        case chevron
        /// A button-like pill such as "[ Add ]" or "[ Connect ]".
        case pill(String)
        /// A non-interactive label such as "Soon".
        case badge(String)
    }

    public var title: String
    public var detail: String?
    public var control: Control
    public var isSelected: Bool
    public var isDisabled: Bool
    /// An action that ends something (Log out): its title in the danger colour, like a sheet's
    /// destructive action.
    public var isDestructive: Bool

    public init(
        _ title: String, detail: String? = nil, control: Control = .none, isSelected: Bool = false,
        isDisabled: Bool = false, isDestructive: Bool = false
    ) {
        self.title = title
        self.detail = detail
        self.control = control
        self.isSelected = isSelected
        self.isDisabled = isDisabled
        self.isDestructive = isDestructive
    }

    public var height: Int { detail == nil ? 1 : 2 }

    /// The control as text. Disabled rows lose their affordances, so the state shows without
    /// colour: a pill loses its brackets, a pencil or chevron is not drawn.
    public func controlText(glyphs: Glyphs = .unicode) -> String {
        switch control {
        case .none: return ""
        case .pencil: return isDisabled ? "" : glyphs.pencil
        case .chevron: return isDisabled ? "" : glyphs.chevron
        case .pill(let label): return isDisabled ? "  \(label)  " : "[ \(label) ]"
        // A badge is a label on a reversed block (seed 001's "Soon"), not text in brackets.
        case .badge(let label): return " \(label) "
        }
    }

    public func render(into grid: inout CellGrid, in rect: Rect, glyphs: Glyphs = .unicode) {
        guard rect.height > 0, rect.width > 4 else { return }
        let rows = Rect(x: rect.x, y: rect.y, width: rect.width, height: min(height, rect.height))
        var base = Style.plain
        if isSelected {
            base = base.on(.selection)
            grid.fill(rows, style: base)
            grid.put(glyphs.selected, at: Point(x: rect.x, y: rect.y), style: base.with(.bold), maxX: rect.maxX)
        }
        // Two columns of margin on each side; the control ends at the right margin.
        let left = rect.x + 2
        let right = rect.maxX - 2
        let control = controlText(glyphs: glyphs)
        let controlX = right - DisplayWidth.of(control)
        grid.put(control, at: Point(x: controlX, y: rect.y), style: controlStyle(base), maxX: right)
        let titleEnd = control.isEmpty ? right : controlX - 2
        var titleStyle = base
        titleStyle.foreground = isDisabled ? .muted : isDestructive ? .danger : .text
        if isSelected { titleStyle.attributes.insert(.bold) }
        grid.put(
            TextLayout.truncate(title, width: titleEnd - left), at: Point(x: left, y: rect.y), style: titleStyle,
            maxX: titleEnd)
        if let detail, rect.height > 1 {
            var detailStyle = base
            detailStyle.foreground = .muted
            grid.put(
                TextLayout.truncate(detail, width: titleEnd - left), at: Point(x: left, y: rect.y + 1),
                style: detailStyle, maxX: titleEnd)
        }
    }

    private func controlStyle(_ base: Style) -> Style {
        var style = base
        switch control {
        case .pill:
            style.foreground = isDisabled ? .muted : .accent
            if !isDisabled { style.attributes.insert(.bold) }
        case .badge:
            style.foreground = .muted
            style.attributes.insert(.reverse)
        case .pencil, .chevron:
            style.foreground = isDisabled ? .muted : .accent
        case .none:
            break
        }
        return style
    }
}
