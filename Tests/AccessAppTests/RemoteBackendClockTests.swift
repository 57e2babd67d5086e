import Foundation
import Synchronization
import Testing

@testable import AccessApp

/// The clock of a backend reached with `--backend` (issue 17 item 6): another backend's time as its
/// Date headers tell it, read afresh every time, then the reference backend's admin clock once found.
@Suite struct RemoteBackendClockTests {
    final class Box: Sendable {
        let value: Mutex<Date>
        init(_ date: Date) { value = Mutex(date) }
    }

    @Test func itReadsTheServersTimeAfreshSoADeadlineAndItsSleepAgree() async throws {
        let server = Box(Date(timeIntervalSince1970: 1_800_000_000))
        let clock = RemoteBackendClock(
            serverNow: { server.value.withLock { $0 } }, reference: FollowingClock(source: { .distantPast }))
        #expect(clock.now() == Date(timeIntervalSince1970: 1_800_000_000))
        // The first answer shows the server six minutes behind: now() says so at once.
        server.value.withLock { $0 = Date(timeIntervalSince1970: 1_800_000_000 - 360) }
        #expect(clock.now() == Date(timeIntervalSince1970: 1_800_000_000 - 360))
        // A deadline already passed on the server's clock does not wait.
        try await clock.sleep(until: Date(timeIntervalSince1970: 1_800_000_000 - 361))
        #expect(!clock.isFollowingReference)
    }

    @Test func onceTheReferenceBackendIsFoundItsAdminClockRules() {
        let server = Box(Date(timeIntervalSince1970: 1_800_000_000))
        let admin = Date(timeIntervalSince1970: 1_900_000_000)
        let clock = RemoteBackendClock(
            serverNow: { server.value.withLock { $0 } }, reference: FollowingClock(resync: { nil }))
        clock.followReference(serverNow: admin)
        #expect(clock.isFollowingReference)
        #expect(abs(clock.now().timeIntervalSince(admin)) < 60)
    }
}
