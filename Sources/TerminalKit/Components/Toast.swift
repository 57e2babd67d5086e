import Foundation

/// A short message in a box near the bottom of the screen ("Copied support@321.fit to clipboard").
/// When it goes away is the app's business: it asks `isVisible(at:)` with its own clock.
public struct Toast: Hashable, Sendable {
    public static let defaultDuration: TimeInterval = 3

    public var message: String
    public var shownAt: Date
    public var expiresAt: Date

    public init(_ message: String, shownAt: Date, duration: TimeInterval = Toast.defaultDuration) {
        self.message = message
        self.shownAt = shownAt
        self.expiresAt = shownAt.addingTimeInterval(duration)
    }

    public func isVisible(at now: Date) -> Bool { now >= shownAt && now < expiresAt }

    /// Draws the toast centred at the bottom of `rect` (bottom row of the box on rect's last
    /// row), or nothing once it has expired.
    public func render(into grid: inout CellGrid, in rect: Rect, now: Date, glyphs: Glyphs = .unicode) {
        guard isVisible(at: now), rect.height >= 3, rect.width >= 8 else { return }
        let text = TextLayout.truncate(message, width: rect.width - 8)
        let width = DisplayWidth.of(text) + 4
        let box = Rect(
            x: TextLayout.centeredX(width: width, in: rect.width, from: rect.x), y: rect.maxY - 3, width: width,
            height: 3)
        let surface = Style.plain.on(.surface)
        grid.fill(box, style: surface)
        grid.drawBox(box, lines: glyphs.box, style: Style.border.on(.surface))
        grid.put(text, at: Point(x: box.x + 2, y: box.y + 1), style: surface)
    }
}
