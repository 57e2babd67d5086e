import Foundation

/// A one-line notice across the top of the content: offline, or a wait with a countdown.
/// The countdown is computed from the `now` the app passes in; TerminalKit never reads a clock.
public enum Banner: Hashable, Sendable {
    /// Offline, over a screen that shows what was saved (the methods from the last answer).
    case offline
    /// Offline, over a screen with nothing saved to show: it does not claim otherwise.
    case offlineNothingSaved
    /// A wait until `until`, in the words of `wait`: the gap between sends ("Resend in 0:24") or a limit
    /// reached ("Too many attempts. Try again in 14:52").
    case rateLimited(until: Date, wait: Wait = .limit)

    /// What a wait is, in words: the app names them (which limit fired), TerminalKit only draws them.
    public struct Wait: Hashable, Sendable {
        /// Before the countdown: "Resend in", "Daily limit reached. Try again in".
        public var lead: String
        /// The same before the countdown on a narrow terminal.
        public var shortLead: String
        /// A limit reached, drawn as a danger; the ordinary gap between sends is only a warning.
        public var isLimit: Bool

        public init(lead: String, shortLead: String = "Try again in", isLimit: Bool = true) {
            self.lead = lead
            self.shortLead = shortLead
            self.isLimit = isLimit
        }

        /// A limit nobody named.
        public static let limit = Wait(lead: "Too many attempts. Try again in")
    }

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
        case .rateLimited(let until, let wait):
            let left = Self.secondsLeft(until: until, now: now)
            return left == 0 ? "You can try again now." : "\(wait.lead) \(TextLayout.countdown(seconds: left))"
        }
    }

    /// The words for a narrow terminal: the wait itself, whole, rather than a cut sentence.
    public func shortText(now: Date) -> String {
        switch self {
        case .offline: return "Offline: saved info."
        case .offlineNothingSaved: return "Offline."
        case .rateLimited(let until, let wait):
            let left = Self.secondsLeft(until: until, now: now)
            return left == 0 ? "Try again now." : "\(wait.shortLead) \(TextLayout.countdown(seconds: left))"
        }
    }

    /// Whether the banner still says something: a rate limit ends, being offline does not.
    public func isActive(at now: Date) -> Bool {
        switch self {
        case .offline, .offlineNothingSaved: return true
        case .rateLimited(let until, _): return Self.secondsLeft(until: until, now: now) > 0
        }
    }

    public var height: Int { 1 }

    /// Draws the banner on the first row of `rect`: a reversed bar that starts with "!" so it is
    /// noticed without colour.
    public func render(into grid: inout CellGrid, in rect: Rect, now: Date) {
        guard rect.height > 0, rect.width > 0 else { return }
        let role: ColorRole
        switch self {
        case .offline, .offlineNothingSaved: role = .warning
        case .rateLimited(_, let wait): role = wait.isLimit ? .danger : .warning
        }
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
