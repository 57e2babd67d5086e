/// The `?` help: every binding of the screen's keymap in a box over the dimmed screen.
public struct HelpOverlay: Hashable, Sendable {
    public var title: String
    public var keymap: Keymap
    public var closeHint: String

    public init(_ keymap: Keymap, title: String = "Keyboard shortcuts", closeHint: String = "Esc or ? closes") {
        self.keymap = keymap
        self.title = title
        self.closeHint = closeHint
    }

    /// The box: sized to its content, centred, never larger than the grid less a margin.
    public func frame(in size: Size, glyphs: Glyphs = .unicode) -> Rect {
        let keyWidth = keymap.hints.map { DisplayWidth.of(Self.keyLabel($0, glyphs)) }.max() ?? 0
        let descriptionWidth = keymap.hints.map { DisplayWidth.of($0.description) }.max() ?? 0
        let contentWidth = max(keyWidth + 3 + descriptionWidth, DisplayWidth.of(title), DisplayWidth.of(closeHint))
        // Border and padding: 3 columns each side; title, blank, bindings, blank, hint.
        let width = contentWidth + 6
        let height = keymap.hints.count + 6
        return Rect(size: size).inset(horizontal: 2, vertical: 1).centered(width: width, height: height)
    }

    public func render(into grid: inout CellGrid, glyphs: Glyphs = .unicode) {
        let frame = frame(in: grid.size, glyphs: glyphs)
        grid.dim(except: frame)
        guard frame.width >= 8, frame.height >= 3 else { return }
        let surface = Style.plain.on(.surface)
        grid.fill(frame, style: surface)
        grid.drawBox(frame, lines: glyphs.box, style: Style.border.on(.surface))
        let content = frame.inset(horizontal: 3, vertical: 1)
        let keyWidth = keymap.hints.map { DisplayWidth.of(Self.keyLabel($0, glyphs)) }.max() ?? 0
        var y = content.y
        grid.putCentered(title, row: y, in: content, style: surface.with(.bold))
        y += 2
        for binding in keymap.hints where y < content.maxY - 2 {
            grid.put(
                Self.keyLabel(binding, glyphs), at: Point(x: content.x, y: y), style: surface.with(.bold),
                maxX: content.maxX)
            let descriptionX = content.x + keyWidth + 3
            grid.put(
                TextLayout.truncate(binding.description, width: content.maxX - descriptionX),
                at: Point(x: descriptionX, y: y), style: surface, maxX: content.maxX)
            y += 1
        }
        var hint = surface
        hint.foreground = .muted
        grid.putCentered(closeHint, row: content.maxY - 1, in: content, style: hint)
    }

    /// Help spells out every alternative ("↑/↓ (k/j)"), unlike the footer's compact "↑↓".
    static func keyLabel(_ binding: KeyHint, _ glyphs: Glyphs) -> String {
        let keys = binding.keys.map(glyphs.label(for:)).joined(separator: "/")
        guard !binding.aliases.isEmpty else { return keys }
        return keys + " (" + binding.aliases.map(glyphs.label(for:)).joined(separator: "/") + ")"
    }
}
