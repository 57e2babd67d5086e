import TerminalKit
import Testing

@testable import CursesDriver

/// Issue 34 item 3: the terminal's queue of events read but not yet handed out.
@Suite struct InputQueueTests {
    @Test func handsOutEventsOldestFirst() {
        var queue = InputQueue()
        queue.append(.key(.up))
        queue.append(.paste("abc"))
        queue.append(.key(.down))
        #expect(queue.popFirst() == .key(.up))
        #expect(queue.last == .key(.down))
        #expect(queue.popFirst() == .paste("abc"))
        #expect(queue.popFirst() == .key(.down))
        #expect(queue.popFirst() == nil)
        #expect(queue.isEmpty)
        #expect(queue.last == nil)
    }

    @Test func theNewestCanBeDropped() {
        var queue = InputQueue()
        queue.append(.key(.up))
        queue.append(.resize(Size(cols: 80, rows: 24)))
        queue.removeLast()
        queue.append(.resize(Size(cols: 100, rows: 30)))
        #expect(queue.popFirst() == .key(.up))
        #expect(queue.popFirst() == .resize(Size(cols: 100, rows: 30)))
        #expect(queue.isEmpty)
    }

    /// Events appended while older ones are still queued keep their order across the emptying.
    @Test func appendsBetweenPopsKeepTheirOrder() {
        var queue = InputQueue()
        for index in 0..<5 { queue.append(.paste("\(index)")) }
        #expect(queue.popFirst() == .paste("0"))
        queue.append(.paste("5"))
        let rest = (0..<5).compactMap { _ in queue.popFirst() }
        #expect(rest == (1...5).map { .paste("\($0)") })
        #expect(queue.popFirst() == nil)
    }

    /// A backlog's room is given back once it is drained; a normal read's is kept for the next one.
    @Test func aDrainedBacklogGivesItsRoomBack() {
        var queue = InputQueue()
        for _ in 0..<13_000 { queue.append(.key(.down)) }
        #expect(queue.capacity >= 13_000)
        while queue.popFirst() != nil {}
        #expect(queue.capacity <= InputQueue.keptCapacity)

        for _ in 0..<50 { queue.append(.key(.down)) }
        let kept = queue.capacity
        while queue.popFirst() != nil {}
        #expect(queue.capacity == kept)
        #expect(kept > 0)
    }
}
