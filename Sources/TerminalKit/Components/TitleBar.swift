/// The top of a screen: a back affordance when the screen can go back, the title, an optional
/// subtitle ("Current: +995 511 100 000") and a rule under them.
public struct TitleBar: Hashable, Sendable {
    public var title: String
    public var canGoBack: Bool
    public var subtitle: String?

    public init(_ title: String, canGoBack: Bool = false, subtitle: String? = nil) {
        self.title = title
        self.canGoBack = canGoBack
        self.subtitle = subtitle
    }

    /// Rows used: title, subtitle if any, the rule.
    public var height: Int { subtitle == nil ? 2 : 3 }

    public func render(into grid: inout CellGrid, in rect: Rect, glyphs: Glyphs = .unicode) {
        guard rect.height > 0, rect.width > 0 else { return }
        let content = rect.inset(horizontal: 2)
        var titleArea = content
        if canGoBack {
            let end = grid.put(glyphs.back, at: Point(x: content.x, y: rect.y), style: .accent, maxX: content.maxX)
            // The title stays centred on the screen unless it would run into the back label.
            let backWidth = end - content.x + 2
            titleArea = Rect(
                x: content.x + backWidth, y: content.y, width: content.width - 2 * backWidth, height: 1)
        }
        grid.putCentered(title, row: rect.y, in: titleArea, style: .bold)
        var y = rect.y + 1
        if let subtitle, y < rect.maxY {
            grid.putCentered(subtitle, row: y, in: content, style: .muted)
            y += 1
        }
        if y < rect.maxY {
            grid.put(
                String(repeating: glyphs.rule, count: rect.width), at: Point(x: rect.x, y: y), style: .border,
                maxX: rect.maxX)
        }
    }
}
