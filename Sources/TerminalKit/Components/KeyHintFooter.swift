/// The one-line key hints at the bottom of a screen, from the screen's keymap:
/// "↑↓ Move  Enter Open  Esc Back  ? Help", cut with "…" when it does not fit.
public struct KeyHintFooter: Hashable, Sendable {
    public var keymap: Keymap

    public init(_ keymap: Keymap) { self.keymap = keymap }

    /// Arrow pairs read better joined ("↑↓"); other alternatives keep a slash ("q/Ctrl+C").
    public static func label(for binding: KeyHint, glyphs: Glyphs = .unicode) -> String {
        let arrows: Set<Key> = [.up, .down, .left, .right]
        let labels = binding.keys.map(glyphs.label(for:))
        if binding.keys.count > 1, binding.keys.allSatisfy(arrows.contains), !glyphs.asciiKeys {
            return labels.joined()
        }
        return labels.joined(separator: "/")
    }

    public func text(glyphs: Glyphs = .unicode) -> String {
        keymap.footer.map { "\(Self.label(for: $0, glyphs: glyphs)) \($0.description)" }.joined(separator: "  ")
    }

    /// The hints that fit in `width` columns, whole ones only, and whether some were left out
    /// (then "  …" follows them, and is counted in the width).
    public func fitting(width: Int, glyphs: Glyphs = .unicode) -> (hints: [KeyHint], truncated: Bool) {
        let all = keymap.footer
        var used = 0
        var shown: [KeyHint] = []
        for (index, binding) in all.enumerated() {
            let hint = DisplayWidth.of("\(Self.label(for: binding, glyphs: glyphs)) \(binding.description)")
            let next = used + (shown.isEmpty ? 0 : 2) + hint
            let isLast = index == all.count - 1
            if next + (isLast ? 0 : 3) > width, !(isLast && next <= width) {
                return (shown, true)
            }
            used = next
            shown.append(binding)
        }
        return (shown, false)
    }

    /// Where each hint that fits is drawn on the first row of `rect` (its key and description), for
    /// a click to find the key it stands for.
    public func hints(in rect: Rect, glyphs: Glyphs = .unicode) -> [(binding: KeyHint, rect: Rect)] {
        let left = rect.x + 2
        let maxX = rect.maxX - 2
        guard rect.height > 0, maxX > left else { return [] }
        var x = left
        var hints: [(binding: KeyHint, rect: Rect)] = []
        for binding in fitting(width: maxX - left, glyphs: glyphs).hints {
            if !hints.isEmpty { x += 2 }
            let width = DisplayWidth.of("\(Self.label(for: binding, glyphs: glyphs)) \(binding.description)")
            hints.append((binding, Rect(x: x, y: rect.y, width: min(width, maxX - x), height: 1)))
            x += width
        }
        return hints
    }

    /// Draws the hints on the first row of `rect`, with the usual two-column margins. Hints
    /// that do not fit are left out whole and replaced by "…".
    public func render(into grid: inout CellGrid, in rect: Rect, glyphs: Glyphs = .unicode) {
        guard rect.height > 0 else { return }
        let left = rect.x + 2
        let maxX = rect.maxX - 2
        guard maxX > left else { return }
        let truncated = fitting(width: maxX - left, glyphs: glyphs).truncated
        var x = left
        for (index, hint) in hints(in: rect, glyphs: glyphs).enumerated() {
            if index > 0 { grid.put("  ", at: Point(x: hint.rect.x - 2, y: rect.y), style: .muted, maxX: maxX) }
            x = grid.put(
                Self.label(for: hint.binding, glyphs: glyphs), at: Point(x: hint.rect.x, y: rect.y), style: .bold,
                maxX: maxX)
            x = grid.put(" " + hint.binding.description, at: Point(x: x, y: rect.y), style: .muted, maxX: maxX)
        }
        if truncated { grid.put(x == left ? "…" : "  …", at: Point(x: x, y: rect.y), style: .muted, maxX: maxX) }
    }
}
