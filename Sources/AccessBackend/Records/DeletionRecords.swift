import AccessAPI
import GRDB

/// A row of `deletions`: a deleted account, its purge and the hold on its identifiers.
struct DeletionRecord: Record {
    static let databaseTableName = "deletions"

    var userId: String
    var isPrimary: Bool
    var deletedAt: Double
    var purgeAt: Double
    var heldUntil: Double
    var purgedAt: Double? = nil
}

/// A row of `identity_holds`: a deleted account's phone, email or provider account, as a keyed digest,
/// kept from new claims until `heldUntil`.
struct IdentityHoldRecord: Record {
    static let databaseTableName = "identity_holds"

    var identifierHash: String
    var heldUntil: Double
}

/// What a scheduled item is (`scheduled_items.kind`).
enum ScheduledKind: String, CaseIterable, Codable, DatabaseValueConvertible, Sendable {
    // The blockers' order: sessions before bookings (seed 001).
    /// A coach's session.
    case session
    /// An athlete's booking.
    case booking

    var blocker: DeleteBlockerKind { self == .session ? .upcomingSessions : .upcomingBookings }
}

/// A row of `scheduled_items`: a coach's session or an athlete's booking, which blocks a delete until it
/// has started.
struct ScheduledItemRecord: Record {
    static let databaseTableName = "scheduled_items"

    var id: Int64? = nil
    var userId: String
    var kind: ScheduledKind
    var title: String
    var startsAt: Double
}

/// A row of `payouts`: a coach's balance as the scenario stored it; `DeletionService.payout` works out where
/// it stands on the clock.
struct PayoutRecord: Record {
    static let databaseTableName = "payouts"

    var userId: String
    var currency: String
    var availableMinor: Int
    var onHoldMinor: Int
    var holdReleasesAt: Double?
    var nextAutomaticPayoutAt: Double
}
