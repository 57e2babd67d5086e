import Foundation

/// A one-line notice across the top of the content: offline, or rate limited with a countdown.
/// The countdown is computed from the `now` the app passes in; TerminalKit never reads a clock.
public enum Banner: Hashable, Sendable {
    /// Offline, over a screen that shows what was saved (the methods from the last answer).
    case offline
    /// Offline, over a screen with nothing saved to show: it does not claim otherwise.
    case offlineNothingSaved
    case rateLimited(until: Date)

    public static let offlineText = "You're offline. Showing saved info."
    public static let offlineNothingSavedText = "You're offline. Trying to reconnect…"

    /// Whole seconds left, rounded up so "0:00" only shows when the wait is over.
    public static func secondsLeft(until: Date, now: Date) -> Int {
        max(0, Int((until.timeIntervalSince(now)).rounded(.up)))
    }

    public func text(now: Date) -> String {
        switch self {
        case .offline:
            return Self.offlineText
        case .offlineNothingSaved:
            return Self.offlineNothingSavedText
        case .rateLimited(let until):
            let left = Self.secondsLeft(until: until, now: now)
            return left == 0
                ? "You can try again now." : "Too many attempts. Try again in \(TextLayout.countdown(seconds: left))"
        }
    }

    /// The words for a narrow terminal: the wait itself, whole, rather than a cut sentence.
    public func shortText(now: Date) -> String {
        switch self {
        case .offline: return "Offline: saved info."
        case .offlineNothingSaved: return "Offline."
        case .rateLimited(let until):
            let left = Self.secondsLeft(until: until, now: now)
            return left == 0 ? "Try again now." : "Try again in \(TextLayout.countdown(seconds: left))"
        }
    }

    /// Whether the banner still says something: a rate limit ends, being offline does not.
    public func isActive(at now: Date) -> Bool {
        switch self {
        case .offline, .offlineNothingSaved: return true
        case .rateLimited(let until): return Self.secondsLeft(until: until, now: now) > 0
        }
    }

    public var height: Int { 1 }

    /// Draws the banner on the first row of `rect`: a reversed bar that starts with "!" so it is
    /// noticed without colour.
    public func render(into grid: inout CellGrid, in rect: Rect, now: Date) {
        guard rect.height > 0, rect.width > 0 else { return }
        let role: ColorRole = self == .offline || self == .offlineNothingSaved ? .warning : .danger
        let style = Style(foreground: role, attributes: [.reverse, .bold])
        let row = rect.row(0)
        grid.fill(row, style: style)
        let full = "! " + text(now: now)
        let shown = DisplayWidth.of(full) <= rect.width - 4 ? full : "! " + shortText(now: now)
        grid.put(
            TextLayout.truncate(shown, width: rect.width - 4), at: Point(x: rect.x + 2, y: rect.y), style: style,
            maxX: rect.maxX - 2)
    }
}
