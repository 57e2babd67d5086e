import AccessAPI
import Foundation
import Synchronization

/// Recent requests for QA: method, path, status, time taken, the deciding rule, the injected fault, and the
/// request's headers, query and JSON bodies with every secret redacted (`JournalCapture` does that before an
/// entry gets here: nothing unredacted is ever kept).
final class JournalService: Sendable {
    static let capacity = 500
    /// A ring: every request records an entry, and shifting 500 entries down on each one cost more than
    /// a whole /health answer.
    private struct Ring {
        var slots: [JournalEntry] = []
        var next = 0
        var lastID = 0
    }
    private let entries = Mutex(Ring())

    /// Numbers the entry (its `id` is ignored) and keeps it.
    func record(_ entry: JournalEntry) {
        var entry = entry
        entries.withLock { ring in
            ring.lastID += 1
            entry.id = ring.lastID
            if ring.slots.count < Self.capacity {
                ring.slots.append(entry)
            } else {
                ring.slots[ring.next] = entry
            }
            ring.next = (ring.next + 1) % Self.capacity
        }
    }

    /// Puts back entries saved by an earlier run (oldest first); ids go on from the newest.
    func restore(_ saved: [JournalEntry]) {
        entries.withLock { ring in
            ring = Ring()
            for entry in saved.suffix(Self.capacity) {
                ring.slots.append(entry)
                ring.lastID = max(ring.lastID, entry.id)
            }
            ring.next = ring.slots.count % Self.capacity
        }
    }

    var lastID: Int { entries.withLock { $0.lastID } }

    static let defaultLimit = 100

    /// `?limit=` as the contract declares it (an integer, 0...capacity); anything else is a 422 rather
    /// than a silent default, so a typo in a QA script shows.
    func limit(from query: String?) throws -> Int {
        guard let query else { return Self.defaultLimit }
        guard let value = Int(query), (0...Self.capacity).contains(value) else {
            throw BackendError(
                .unprocessableContent, "invalid_parameter", "limit: expected an integer from 0 to \(Self.capacity).",
                rule: .adminInvalidParameter)
        }
        return value
    }

    /// Oldest first, like the list it replaced.
    func recent(limit: Int) -> [JournalEntry] {
        entries.withLock { ring in Array(Self.ordered(ring).suffix(limit)) }
    }

    /// Entries numbered after `id`, oldest first: what a save has not written yet.
    func entries(after id: Int) -> [JournalEntry] {
        entries.withLock { ring in Self.ordered(ring).filter { $0.id > id } }
    }

    private static func ordered(_ ring: Ring) -> [JournalEntry] {
        // Until the ring is full, `next` is its end and the slots are already in order.
        ring.slots.count < capacity ? ring.slots : Array(ring.slots[ring.next...]) + Array(ring.slots[..<ring.next])
    }
}
