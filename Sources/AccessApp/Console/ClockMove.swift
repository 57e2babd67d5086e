import AccessAPI
import AccessCore
import Foundation

/// How QA changes the reference backend's clock (the palette's "Clock" commands, a tape's `clock`): forward
/// by an amount, to the next deadline, to a time (forward only), or frozen and running again.
public enum ClockMove: Equatable, Sendable {
    case by(seconds: TimeInterval)
    case toNextDeadline
    /// To this time (`POST /_admin/clock {at}`); the backend refuses one in its past.
    case to(Date)
    /// Stopped where it stands (true) or running on from there (false).
    case frozen(Bool)

    /// The palette's choices, in order.
    public static let presets: [ClockMove] = [
        .by(seconds: SendLimits.cooldown), .by(seconds: CodeRules.lifetime), .by(seconds: ReauthRules.window),
        .by(seconds: SendLimits.dailyWindow), .toNextDeadline,
        .frozen(true), .frozen(false),
    ]

    public var label: String {
        switch self {
        case .toNextDeadline: return "to the next deadline"
        case .by(let seconds): return "+" + Self.duration(seconds)
        case .to(let date): return "to " + ((try? ContractDates().encode(date)) ?? "\(date)")
        case .frozen(true): return "freeze"
        case .frozen(false): return "unfreeze"
        }
    }

    /// "30 s", "5 min", "24 h", "1 h 30 min".
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s" }
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
    }

    /// What a tape's `clock` and the palette's "clock …" take: `+30s`, `+5m`, `+2h`, `+1d` (or `+90`,
    /// seconds), `next`, a UTC time (`2026-12-01T09:00:00Z`, `2026-12-01T09:00`, `2026-12-01`), `freeze`
    /// and `unfreeze`. nil for anything else, or a move over a year.
    public static func parse(_ word: String) -> ClockMove? {
        switch word.lowercased() {
        case "next": return .toNextDeadline
        case "freeze": return .frozen(true)
        case "unfreeze": return .frozen(false)
        default: break
        }
        if word.hasPrefix("+") { return amount(word.dropFirst()) }
        return time(word).map(ClockMove.to)
    }

    private static func amount(_ text: Substring) -> ClockMove? {
        var number = text
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var unit: TimeInterval = 1
        if let last = number.last, let scale = units[last] {
            unit = scale
            number = number.dropLast()
        }
        guard let value = TimeInterval(number), value > 0, value * unit <= 366 * 86_400 else { return nil }
        return .by(seconds: value * unit)
    }

    /// Read as UTC; seconds and the zone may be left out, or the whole time of day.
    private static func time(_ text: String) -> Date? {
        var full = text.uppercased()
        if full.count == 10 { full += "T00:00" }
        if full.count == 16 { full += ":00" }
        if !full.hasSuffix("Z") { full += "Z" }
        return try? Date.ISO8601FormatStyle().parse(full)
    }
}
