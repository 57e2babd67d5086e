/// The one-line key hints at the bottom of a screen, from the screen's keymap:
/// "↑↓ Move  Enter Open  Esc Back  ? Help", cut with "…" when it does not fit.
public struct KeyHintFooter: Hashable, Sendable {
    public var keymap: Keymap

    public init(_ keymap: Keymap) { self.keymap = keymap }

    /// Arrow pairs read better joined ("↑↓"); other alternatives keep a slash ("q/Ctrl+C").
    public static func label(for binding: KeyBinding) -> String {
        let arrows: Set<Key> = [.up, .down, .left, .right]
        if binding.keys.count > 1, binding.keys.allSatisfy(arrows.contains) {
            return binding.keys.map(\.label).joined()
        }
        return binding.keyLabel
    }

    public var text: String {
        keymap.footer.map { "\(Self.label(for: $0)) \($0.description)" }.joined(separator: "  ")
    }

    /// Draws the hints on the first row of `rect`, with the usual two-column margins.
    public func render(into grid: inout CellGrid, in rect: Rect) {
        guard rect.height > 0 else { return }
        let left = rect.x + 2
        let maxX = rect.maxX - 2
        guard maxX > left else { return }
        let fits = DisplayWidth.of(text) <= maxX - left
        let limit = fits ? maxX : maxX - 1
        var x = left
        for (index, binding) in keymap.footer.enumerated() {
            if index > 0 { x = grid.put("  ", at: Point(x: x, y: rect.y), style: .muted, maxX: limit) }
            x = grid.put(Self.label(for: binding), at: Point(x: x, y: rect.y), style: .bold, maxX: limit)
            x = grid.put(" " + binding.description, at: Point(x: x, y: rect.y), style: .muted, maxX: limit)
        }
        if !fits { grid.put("…", at: Point(x: limit, y: rect.y), style: .muted, maxX: maxX) }
    }
}
