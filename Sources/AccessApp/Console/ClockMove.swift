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

    /// "30 s", "5 min", "24 h", "1 h 30 min"; from two days on, days: "33 d 4 h" rather than "796 h" (issue 48
    /// item 19).
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole >= 2 * 86_400 {
            let days = whole / 86_400
            let hours = (whole % 86_400) / 3600
            return hours == 0 ? "\(days) d" : "\(days) d \(hours) h"
        }
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s" }
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
    }

    /// What a tape's `clock` and the palette's "clock …" take, one grammar for both (issue 48 item 11): an
    /// amount with its unit, `+30s`, `+5m`, `+2h`, `+1d` (the unit may be spelled and set apart: `+31 min`,
    /// `+2 hours`), `next`, a UTC time (`2026-12-01T09:00:00Z`, `2026-12-01T09:00`, `2026-12-01`), `freeze`
    /// and `unfreeze`. nil for anything else, a bare number among it (`+5` and `5` were 5 seconds in one place
    /// and 5 minutes in another: `unitMissing` says what to type), or a move over a year.
    public static func parse(_ text: String) -> ClockMove? {
        let word = text.split(separator: " ").joined()
        switch word.lowercased() {
        case "next": return .toNextDeadline
        case "freeze": return .frozen(true)
        case "unfreeze": return .frozen(false)
        default: break
        }
        if word.hasPrefix("+") { return amount(word.dropFirst()) }
        return time(word).map(ClockMove.to)
    }

    /// For a bare number (`5`, `+5`, `+1.5`): the same amount with each unit, to type instead.
    public static func unitMissing(_ text: String) -> String? {
        let word = text.split(separator: " ").joined()
        let number = word.hasPrefix("+") ? String(word.dropFirst()) : word
        guard !number.isEmpty, Double(number) != nil else { return nil }
        return "\(word) needs a unit: +\(number)s, +\(number)m, +\(number)h or +\(number)d"
    }

    /// The units an amount takes, by every name it goes by.
    private static let units: [String: TimeInterval] = [
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
        "d": 86_400, "day": 86_400, "days": 86_400,
    ]

    private static func amount(_ text: Substring) -> ClockMove? {
        guard let unitStart = text.firstIndex(where: \.isLetter),
            let unit = units[text[unitStart...].lowercased()],
            let value = TimeInterval(text[..<unitStart]), value > 0, value * unit <= 366 * 86_400
        else { return nil }
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
