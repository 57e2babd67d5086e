import AccessAPI
import Foundation

/// The delete blockers of the gallery and the tests, dated from `now` as the reference
/// backend's scenarios are (on the gallery's clock, a Friday at 08:00 UTC).
extension SampleData {
    /// `days` after the start of `now`'s day (UTC), at `hour`:`minute`.
    static func day(_ now: Date, plus days: Int, at hour: Int, _ minute: Int = 0) -> Date {
        let midnight = now - now.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400)
        return midnight + TimeInterval(days * 86_400 + hour * 3600 + minute * 60)
    }

    /// A coach's three upcoming sessions (seed 001): Monday, Tuesday and Thursday.
    public static func upcomingSessions(at now: Date) -> DeleteBlocker {
        DeleteBlocker(
            kind: .init(.upcomingSessions),
            items: [
                ScheduledItem(startsAt: day(now, plus: 3, at: 10), title: "Padel with Anna M."),
                ScheduledItem(startsAt: day(now, plus: 4, at: 18, 30), title: "Group · Tennis (4 athletes)"),
                ScheduledItem(startsAt: day(now, plus: 6, at: 9), title: "Padel with John D."),
            ])
    }

    /// €245.50 available and €75.00 on hold for another 18 hours; the automatic payout is on Monday.
    public static func pendingPayout(at now: Date, holdReleasesAt: Date? = nil) -> DeleteBlocker {
        DeleteBlocker(
            kind: .init(.pendingPayout),
            payout: PendingPayout(
                currency: "EUR", availableMinor: 24_550, onHoldMinor: 7_500,
                holdReleasesAt: holdReleasesAt ?? now + 18 * 3600, nextAutomaticPayoutAt: day(now, plus: 3, at: 6)))
    }

    /// A blocker of a kind this app does not know (seed 000 foresees disputes and holds), in the server's words.
    public static func openDispute() -> DeleteBlocker {
        DeleteBlocker(
            kind: .init(rawValue: "open_dispute"), title: "Resolve your open dispute first",
            message:
                "A payment dispute on your account is still open. It must be settled before the account can be deleted."
        )
    }

    /// The same, without a title or message: the app's own words name the server's kind.
    public static func bareUnknownBlocker() -> DeleteBlocker { DeleteBlocker(kind: .init(rawValue: "account_hold")) }

    /// An athlete's two upcoming bookings (seed 001).
    public static func upcomingBookings(at now: Date) -> DeleteBlocker {
        DeleteBlocker(
            kind: .init(.upcomingBookings),
            items: [
                ScheduledItem(startsAt: day(now, plus: 3, at: 10), title: "Padel with Coach Maria"),
                ScheduledItem(startsAt: day(now, plus: 8, at: 14), title: "Tennis with Coach Vik"),
            ])
    }
}
