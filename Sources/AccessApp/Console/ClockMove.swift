import Foundation

/// How far QA moves the reference backend's clock (the palette's "Clock" commands, a tape's `clock`).
public enum ClockMove: Equatable, Sendable {
    case by(seconds: TimeInterval)
    case toNextDeadline

    /// The palette's choices, in order.
    public static let presets: [ClockMove] = [
        .by(seconds: 30), .by(seconds: 5 * 60), .by(seconds: 15 * 60), .by(seconds: 24 * 3600), .toNextDeadline,
    ]

    public var label: String {
        switch self {
        case .toNextDeadline: return "to the next deadline"
        case .by(let seconds): return "+" + Self.duration(seconds)
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
}
