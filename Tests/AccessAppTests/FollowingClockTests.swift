import Foundation
import Synchronization
import Testing

@testable import AccessApp

/// Issue 48 item 8: the app's clock over HTTP asked the backend for its time at every sleep, and a debounce
/// per keystroke made "Confirm new password" a `GET /_admin/clock` per key, flooding a shared journal. It
/// asks at most once a `recheck`, however many sleeps start.
@Suite struct FollowingClockTests {
    @Test func theBackendIsAskedAtMostOnceARecheckHoweverManySleepsStart() async throws {
        let asked = Mutex(0)
        let local = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let server = Date(timeIntervalSince1970: 1_900_000_000)
        let clock = FollowingClock(
            resync: {
                asked.withLock { $0 += 1 }
                return server
            }, recheck: 1, localNow: { local.withLock { $0 } })
        // Twenty keystrokes' debounces within one second of each other.
        for _ in 0..<20 { try await clock.sleep(until: .distantPast) }
        #expect(asked.withLock { $0 } == 1)
        #expect(clock.now() == server)
        local.withLock { $0 += 0.5 }
        try await clock.sleep(until: .distantPast)
        #expect(asked.withLock { $0 } == 1)
        #expect(clock.now() == server + 0.5)
        local.withLock { $0 += 0.5 }
        try await clock.sleep(until: .distantPast)
        #expect(asked.withLock { $0 } == 2)
        #expect(clock.now() == server)
    }

    /// Following another world's clock asks it at the next sleep, whenever the last ask was.
    @Test func aNewSourceIsAskedAtOnce() async throws {
        let asked = Mutex(0)
        let local = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let clock = FollowingClock(resync: { nil }, recheck: 1, localNow: { local.withLock { $0 } })
        try await clock.sleep(until: .distantPast)
        clock.follow(
            resync: {
                asked.withLock { $0 += 1 }
                return nil
            }, serverNow: nil)
        try await clock.sleep(until: .distantPast)
        #expect(asked.withLock { $0 } == 1)
    }
}
