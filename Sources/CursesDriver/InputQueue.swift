import TerminalKit

/// The events read but not yet handed out, oldest first. Taken from the front by an index: `removeFirst()` on an
/// array moved every event behind it, quadratic in a key storm's backlog. Once emptied it gives back what a
/// backlog grew it to: a soak's storm of some 13,000 keys held half a megabyte for good (issue 34 item 3).
struct InputQueue {
    private var events: [InputEvent] = []
    private var head = 0
    /// What an emptied queue keeps for the next read: far more than one read of typing holds.
    static let keptCapacity = 256

    var isEmpty: Bool { head == events.count }

    var last: InputEvent? { isEmpty ? nil : events.last }

    mutating func append(_ event: InputEvent) { events.append(event) }

    /// Drops the newest event; there must be one.
    mutating func removeLast() {
        precondition(!isEmpty, "removeLast on an empty InputQueue")
        events.removeLast()
    }

    mutating func popFirst() -> InputEvent? {
        guard head < events.count else { return nil }
        let event = events[head]
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: events.capacity <= Self.keptCapacity)
            head = 0
        }
        return event
    }

    /// Room the queue holds now, for tests.
    var capacity: Int { events.capacity }
}
