/// A centred spinner with a label ("Verifying your link…"). The frame comes from a tick the app
/// advances on its own timer.
public struct Spinner: Hashable, Sendable {
    public var label: String
    public var tick: Int

    public init(_ label: String, tick: Int = 0) {
        self.label = label
        self.tick = tick
    }

    public func frame(glyphs: Glyphs = .unicode) -> String {
        let frames = glyphs.spinner
        return frames[((tick % frames.count) + frames.count) % frames.count]
    }

    /// Draws the spinner in the middle of `rect` with the label two rows under it.
    public func render(into grid: inout CellGrid, in rect: Rect, glyphs: Glyphs = .unicode) {
        guard rect.height > 0, rect.width > 0 else { return }
        let height = min(3, rect.height)
        let top = rect.y + (rect.height - height) / 2
        grid.putCentered(frame(glyphs: glyphs), row: top, in: rect, style: Style.accent.with(.bold))
        if height == 3 { grid.putCentered(label, row: top + 2, in: rect, style: .plain) }
    }
}
