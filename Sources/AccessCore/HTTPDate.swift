import Foundation
import Synchronization

/// An HTTP date (RFC 9110 §5.6.7, IMF-fixdate), as a Date header carries it: whole seconds, GMT. The reference
/// backend writes its own clock's time in its answers' Date header, and `accessdeck proxy` reads the upstream's
/// clock from it (issue 52), so a moved clock shows in the traffic.
public enum HTTPDate {
    /// The last second formatted and the last text parsed: a server answers many times a second.
    private static let lastFormatted = Mutex<(second: Int, text: String)?>(nil)
    private static let lastParsed = Mutex<(text: String, date: Date)?>(nil)

    public static func format(_ date: Date) -> String {
        let second = Int(date.timeIntervalSince1970.rounded(.down))
        if let last = lastFormatted.withLock({ $0 }), last.second == second { return last.text }
        let text = formatter().string(from: Date(timeIntervalSince1970: TimeInterval(second)))
        lastFormatted.withLock { $0 = (second, text) }
        return text
    }

    /// nil for anything but an IMF-fixdate.
    public static func parse(_ text: String) -> Date? {
        if let last = lastParsed.withLock({ $0 }), last.text == text { return last.date }
        guard let date = formatter().date(from: text) else { return nil }
        lastParsed.withLock { $0 = (text, date) }
        return date
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
