/// Placeholder bars shown where list rows will be while the first fetch runs. Shaped like
/// `ListRow`s with a detail line, so nothing jumps when the data arrives.
public struct SkeletonRows: Hashable, Sendable {
    public var count: Int
    /// Rows between placeholders, as between the real rows.
    public var spacing: Int

    public init(count: Int, spacing: Int = 1) {
        self.count = count
        self.spacing = spacing
    }

    /// Bar widths cycle so the placeholder does not look like a grid.
    static let titleWidths = [16, 22, 12, 18]
    static let detailWidths = [24, 14, 20, 10]

    public var height: Int { count == 0 ? 0 : count * 2 + (count - 1) * spacing }

    public func render(into grid: inout CellGrid, in rect: Rect, glyphs: Glyphs = .unicode) {
        guard rect.width > 8 else { return }
        let style = Style.muted.with(.dim)
        let bar = { (width: Int) in String(repeating: glyphs.skeleton, count: width) }
        let available = rect.width - 4
        for index in 0..<count {
            let y = rect.y + index * (2 + spacing)
            guard y < rect.maxY else { break }
            let titleWidth = min(Self.titleWidths[index % Self.titleWidths.count], available - 6)
            grid.put(bar(titleWidth), at: Point(x: rect.x + 2, y: y), style: style)
            grid.putRight(bar(3), endingAt: rect.maxX - 2, row: y, style: style)
            if y + 1 < rect.maxY {
                let detailWidth = min(Self.detailWidths[index % Self.detailWidths.count], available - 6)
                grid.put(bar(detailWidth), at: Point(x: rect.x + 2, y: y + 1), style: style)
            }
        }
    }
}
