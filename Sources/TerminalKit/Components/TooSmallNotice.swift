/// What the app draws instead of a screen when the terminal is below the minimum size. Works
/// at any size, down to 0×0: it shows as many lines as fit, cut with "…".
public enum TooSmallNotice {
    public static func lines(minimum: Size = .minimum) -> [String] {
        ["Terminal too small", "Resize to at least \(minimum.cols)×\(minimum.rows) · q quits"]
    }

    public static func render(into grid: inout CellGrid, minimum: Size = .minimum) {
        let bounds = grid.bounds
        guard bounds.width > 0, bounds.height > 0 else { return }
        var lines = lines(minimum: minimum)
        // Two lines with a blank between when there is room, else as many as fit.
        var styles: [Style] = [.bold, .muted]
        if bounds.height >= 3 {
            lines.insert("", at: 1)
            styles.insert(.plain, at: 1)
        }
        let shown = min(lines.count, bounds.height)
        let top = (bounds.height - shown) / 2
        for index in 0..<shown {
            grid.putCentered(lines[index], row: top + index, in: bounds, style: styles[index])
        }
    }
}
