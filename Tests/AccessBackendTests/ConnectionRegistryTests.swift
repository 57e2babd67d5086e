import NIOCore
import NIOEmbedded
import Testing

@testable import AccessBackend

/// The connection cap's choice, one connection at a time (SlowClientTests shows it over real sockets): each
/// connection's guard moves its own slot without the registry's lock (issue 34 item 2), so the registry must
/// still never push out a connection whose request is being answered.
@Suite struct ConnectionRegistryTests {
    private let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    private func admitted(_ admission: ConnectionRegistry.Admission) -> ConnectionRegistry.Slot? {
        switch admission {
        case .admitted(let slot), .admittedInPlaceOf(_, let slot): slot
        case .refused: nil
        }
    }

    @Test func belowTheCapEveryConnectionIsAdmitted() throws {
        let registry = ConnectionRegistry(maxConnections: 2)
        for _ in 0..<2 {
            guard case .admitted = registry.admit(EmbeddedChannel(), at: start) else {
                Issue.record("not admitted below the cap")
                return
            }
        }
        #expect(registry.counts == (2, 0))
    }

    @Test func atTheCapTheLongestWaitingMakesRoom() throws {
        let registry = ConnectionRegistry(maxConnections: 2)
        let older = EmbeddedChannel()
        let newer = EmbeddedChannel()
        _ = registry.admit(newer, at: start + .seconds(5))
        _ = registry.admit(older, at: start)
        guard case .admittedInPlaceOf(let pushedOut, _) = registry.admit(EmbeddedChannel(), at: start + .seconds(9))
        else {
            Issue.record("not admitted in place of another")
            return
        }
        #expect(pushedOut === older)
        #expect(registry.counts == (2, 0))
    }

    @Test func aConnectionAnsweringARequestIsNeverPushedOut() throws {
        let registry = ConnectionRegistry(maxConnections: 2)
        let answering = EmbeddedChannel()
        let waiting = EmbeddedChannel()
        let slot = try #require(admitted(registry.admit(answering, at: start)))
        _ = registry.admit(waiting, at: start + .seconds(5))
        slot.update(waitingSince: nil)
        #expect(registry.counts == (2, 1))
        guard case .admittedInPlaceOf(let pushedOut, _) = registry.admit(EmbeddedChannel(), at: start + .seconds(9))
        else {
            Issue.record("not admitted in place of another")
            return
        }
        #expect(pushedOut === waiting)
    }

    @Test func whenEveryConnectionIsAnsweringANewOneIsRefused() throws {
        let registry = ConnectionRegistry(maxConnections: 1)
        let slot = try #require(admitted(registry.admit(EmbeddedChannel(), at: start)))
        slot.update(waitingSince: nil)
        guard case .refused = registry.admit(EmbeddedChannel(), at: start + .seconds(1)) else {
            Issue.record("admitted")
            return
        }
        // Its answer sent, it waits again and can make room.
        slot.update(waitingSince: start + .seconds(2))
        guard case .admittedInPlaceOf = registry.admit(EmbeddedChannel(), at: start + .seconds(3)) else {
            Issue.record("not admitted in place of the one that waits again")
            return
        }
    }

    @Test func aPushedOutConnectionLeavingLaterChangesNothing() throws {
        let registry = ConnectionRegistry(maxConnections: 1)
        let first = try #require(admitted(registry.admit(EmbeddedChannel(), at: start)))
        let second = try #require(admitted(registry.admit(EmbeddedChannel(), at: start + .seconds(1))))
        // The first's guard has not seen its channel close yet: a request and its answer still move its slot.
        first.update(waitingSince: nil)
        first.update(waitingSince: start + .seconds(2))
        registry.leave(first)
        #expect(registry.counts == (1, 0))
        second.update(waitingSince: nil)
        #expect(registry.counts == (1, 1))
        registry.leave(second)
        #expect(registry.counts == (0, 0))
    }
}
