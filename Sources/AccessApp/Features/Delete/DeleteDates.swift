import Foundation

/// Dates of the delete screens, in the time zone the app was given (`AppOptions.timeZone`), in
/// English as the rest of the copy.
enum DeleteDates {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func parts(_ date: Date, _ zone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.weekday, .month, .day, .hour, .minute], from: date)
    }

    /// "Mon, Apr 28 · 10:00" (seed 001).
    static func slot(_ date: Date, in zone: TimeZone) -> String {
        let parts = parts(date, zone)
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7].prefix(3)
        let month = months[((parts.month ?? 1) - 1) % 12]
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(weekday), \(month) \(parts.day ?? 1) · \(time)"
    }

    /// "Monday".
    static func weekday(_ date: Date, in zone: TimeZone) -> String {
        weekdays[((parts(date, zone).weekday ?? 1) - 1) % 7]
    }

    /// After the amount on hold: "releases in 18h" on the app clock, rounded up so it never says
    /// "in 0h"; minutes in the last hour, and never "60m" (a second under the hour is "1h").
    static func hold(releasesAt: Date?, now: Date) -> String {
        guard let releasesAt else { return "on hold" }
        let remaining = max(0, releasesAt.timeIntervalSince(now))
        let minutes = Int((remaining / 60).rounded(.up))
        if minutes < 60 { return "releases in \(max(1, minutes))m" }
        return "releases in \(Int((remaining / 3600).rounded(.up)))h"
    }

    /// Whether the hold's time has passed on the app clock: the held money is available then.
    static func holdEnded(releasesAt: Date?, now: Date) -> Bool {
        releasesAt.map { now >= $0 } ?? false
    }
}
