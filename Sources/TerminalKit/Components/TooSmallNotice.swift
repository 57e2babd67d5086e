/// What the app draws instead of a screen when the terminal is below the minimum size. Works
/// at any size, down to 0×0: lines are wrapped when there are rows for it, else cut with "…",
/// and only as many as fit are shown.
public enum TooSmallNotice {
    public static func lines(minimum: Size = .minimum) -> [String] {
        ["Terminal too small", "Resize to at least \(minimum.cols)×\(minimum.rows) · q quits"]
    }

    public static func render(into grid: inout CellGrid, minimum: Size = .minimum) {
        let bounds = grid.bounds
        guard bounds.width > 0, bounds.height > 0 else { return }
        let notice = lines(minimum: minimum)
        let title = TextLayout.wrap(notice[0], width: bounds.width)
        // Break the hint at its " · " before breaking it at any other space.
        let hintParts =
            DisplayWidth.of(notice[1]) <= bounds.width ? [notice[1]] : notice[1].components(separatedBy: " · ")
        let hint = hintParts.flatMap { TextLayout.wrap($0, width: bounds.width) }
        var rows: [(String, Style)] = title.map { ($0, .bold) } + [("", .plain)] + hint.map { ($0, .muted) }
        if rows.count > bounds.height {
            rows = [(notice[0], .bold), ("", .plain), (notice[1], .muted)]
            if bounds.height < 3 { rows.remove(at: 1) }
            rows = Array(rows.prefix(bounds.height))
        }
        let top = (bounds.height - rows.count) / 2
        for (index, row) in rows.enumerated() {
            grid.putCentered(row.0, row: top + index, in: bounds, style: row.1)
        }
    }
}
