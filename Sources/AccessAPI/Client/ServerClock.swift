import Foundation
import Synchronization

/// How far the backend's clock is from this machine's, read from the `Date` header of its
/// answers (RFC 9110 §6.6.1). Codes and windows come with absolute times (`expires_at`,
/// `resend_after`) on the server's clock; a countdown that compared them with this machine's
/// clock would show a fresh code as expired when the server runs six minutes behind.
public final class ServerClock: Sendable {
    /// The header has whole seconds, so an offset smaller than this is noise, not skew.
    static let noise: TimeInterval = 2

    private let offset = Mutex<TimeInterval>(0)
    private let localNow: @Sendable () -> Date

    /// `localNow` is this machine's clock; tests pass a fixed one.
    public init(localNow: @escaping @Sendable () -> Date = { Date() }) {
        self.localNow = localNow
    }

    /// Add to this machine's time to get the server's.
    public var offsetSeconds: TimeInterval { offset.withLock { $0 } }

    /// This machine's time, moved onto the server's clock.
    public func now() -> Date { localNow().addingTimeInterval(offsetSeconds) }

    /// Takes one answer's `Date` header, as it arrives.
    func observe(dateHeader: String?) {
        let local = localNow()
        guard let dateHeader, let server = Self.parse(dateHeader) else { return }
        // The header is truncated to the second: the server's time was half a second later on average.
        let measured = server.addingTimeInterval(0.5).timeIntervalSince(local)
        offset.withLock { current in
            // Keep the offset steady against the header's rounding; take a real change at once.
            if abs(measured - current) >= Self.noise || (current != 0 && abs(measured) < Self.noise) {
                current = abs(measured) < Self.noise ? 0 : measured
            }
        }
    }

    /// An IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, the only form a server may send.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2])).map({ $0 + 1 })
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents()
        components.calendar = gregorianUTC
        components.timeZone = gregorianUTC.timeZone
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (time[0], time[1], time[2])
        guard components.isValidDate else { return nil }
        return components.date
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let gregorianUTC: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
