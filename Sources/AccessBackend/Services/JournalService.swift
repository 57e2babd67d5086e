import AccessAPI
import Foundation
import Synchronization

/// Recent requests for QA: method, path, status, time taken and the deciding rule. Never bodies,
/// never query strings (an email can sit in one), never headers (tokens do).
final class JournalService: Sendable {
    private let capacity = 500
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
            if ring.slots.count < capacity {
                ring.slots.append(entry)
            } else {
                ring.slots[ring.next] = entry
            }
            ring.next = (ring.next + 1) % capacity
        }
    }

    static let defaultLimit = 100

    /// `?limit=` as the contract declares it (an integer, 0...capacity); anything else is a 422 rather
    /// than a silent default, so a typo in a QA script shows.
    func limit(from query: String?) throws -> Int {
        guard let query else { return Self.defaultLimit }
        guard let value = Int(query), (0...capacity).contains(value) else {
            throw BackendError(
                .unprocessableContent, "invalid_parameter", "limit: expected an integer from 0 to \(capacity).",
                rule: "admin.invalid_parameter")
        }
        return value
    }

    /// Oldest first, like the list it replaced.
    func recent(limit: Int) -> [JournalEntry] {
        entries.withLock { ring in
            // Until the ring is full, `next` is its end and the slots are already in order.
            let ordered =
                ring.slots.count < capacity
                ? ring.slots : Array(ring.slots[ring.next...]) + Array(ring.slots[..<ring.next])
            return Array(ordered.suffix(limit))
        }
    }
}
