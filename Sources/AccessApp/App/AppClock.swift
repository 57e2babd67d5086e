import Foundation
import Synchronization

/// Where the app gets the time. Every countdown, toast and debounce reads it, so tests and
/// tape replays can move time forward instead of waiting.
public protocol AppClock: Sendable {
    func now() -> Date
    /// Suspends until `deadline` on this clock; throws `CancellationError` when cancelled.
    func sleep(until deadline: Date) async throws
}

/// Wall-clock time.
public struct SystemClock: AppClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) }
    }
}

/// The app's clock when it runs on the reference backend: the backend's own time, so moving the
/// backend's clock (`POST /_admin/clock/advance`) moves every countdown, expiry and window on
/// screen at once ("One clock"). Sleepers look again every `recheck` seconds, so a jump wakes
/// them without anyone having to tell them. A world switch (issue 33) points it at the new world's
/// clock (`follow(source:)`, `follow(resync:serverNow:)`): one clock object, so every sleeper and
/// every screen that holds it follows the world the app is in.
public final class FollowingClock: AppClock, Sendable {
    /// Where the time comes from now: read in process, or the local time plus the offset last measured
    /// from a backend reached over HTTP.
    private struct Source: Sendable {
        /// A backend in this process: its clock. nil: over HTTP, `offset` from the local time.
        var read: (@Sendable () -> Date)?
        /// Asks a remote backend for its time; called at most once a `recheck` while something sleeps.
        var resync: (@Sendable () async -> Date?)?
        var recheck: TimeInterval
        var offset: TimeInterval = 0
        /// When `resync` last went out, on the local clock: a sleep started sooner than `recheck` after it
        /// does not ask again (issue 48 item 8: a debounce per keystroke was a clock read per keystroke).
        var lastResync: Date?
    }
    private let source: Mutex<Source>
    /// The local time, which the offset is measured from and resyncs are spaced on; injected in tests.
    private let localNow: @Sendable () -> Date

    /// Follows a backend in this process: `source` is its clock.
    public init(source: @escaping @Sendable () -> Date, recheck: TimeInterval = 0.2) {
        self.source = Mutex(Source(read: source, resync: nil, recheck: recheck))
        localNow = { Date() }
    }

    /// Follows a backend over HTTP: `resync` fetches its time (nil when it could not).
    public init(
        resync: @escaping @Sendable () async -> Date?, recheck: TimeInterval = 1,
        localNow: @escaping @Sendable () -> Date = { Date() }
    ) {
        source = Mutex(Source(read: nil, resync: resync, recheck: recheck))
        self.localNow = localNow
    }

    public func now() -> Date {
        let (read, offset) = source.withLock { ($0.read, $0.offset) }
        return read?() ?? localNow().addingTimeInterval(offset)
    }

    /// Takes the backend's time as the truth from now on (a clock that follows one over HTTP).
    public func follow(serverNow: Date) {
        let local = localNow()
        source.withLock { $0.offset = serverNow.timeIntervalSince(local) }
    }

    /// From now on follows another clock in this process (another world of the embedded backend).
    public func follow(source read: @escaping @Sendable () -> Date) {
        source.withLock {
            $0.read = read
            $0.resync = nil
        }
    }

    /// From now on follows another backend clock over HTTP (another world's admin clock), `serverNow` its
    /// time as just read (nil: not known until the next resync).
    public func follow(resync: @escaping @Sendable () async -> Date?, serverNow: Date?) {
        let local = localNow()
        source.withLock {
            $0.read = nil
            $0.resync = resync
            $0.lastResync = nil
            if let serverNow { $0.offset = serverNow.timeIntervalSince(local) }
        }
    }

    public func sleep(until deadline: Date) async throws {
        while true {
            // Read afresh each time round: a world switch meanwhile is followed within one `recheck`.
            let local = localNow()
            let (resync, recheck) = source.withLock { source -> ((@Sendable () async -> Date?)?, TimeInterval) in
                guard let resync = source.resync,
                    source.lastResync.map({ local.timeIntervalSince($0) >= source.recheck }) ?? true
                else { return (nil, source.recheck) }
                source.lastResync = local
                return (resync, source.recheck)
            }
            if let resync, let serverNow = await resync() { follow(serverNow: serverNow) }
            let remaining = deadline.timeIntervalSince(now())
            if remaining <= 0 { return }
            try await Task.sleep(nanoseconds: UInt64(min(remaining, recheck) * 1_000_000_000))
        }
    }
}

/// The clock of a backend reached with `--backend`: its time as the `Date` headers of its answers
/// tell it (`serverNow`, always current, so a deadline set now and the sleep that waits for it agree
/// whatever the skew), until the backend turns out to be the reference one; from then on its own
/// movable admin clock (`reference`).
public final class RemoteBackendClock: AppClock, Sendable {
    private let serverNow: @Sendable () -> Date
    private let reference: FollowingClock
    private let followsReference = Mutex(false)

    public init(serverNow: @escaping @Sendable () -> Date, reference: FollowingClock) {
        self.serverNow = serverNow
        self.reference = reference
    }

    public var isFollowingReference: Bool { followsReference.withLock { $0 } }

    /// The backend answered as the reference one: its admin clock is the truth from now on.
    public func followReference(serverNow: Date) {
        reference.follow(serverNow: serverNow)
        followsReference.withLock { $0 = true }
    }

    /// A world switch (issue 33): the new world's admin clock (`resync`) is the truth from now on, `serverNow`
    /// its time as just read (nil: learnt at the next resync). Only the reference backend has worlds.
    public func followReference(resync: @escaping @Sendable () async -> Date?, serverNow: Date?) {
        reference.follow(resync: resync, serverNow: serverNow)
        followsReference.withLock { $0 = true }
    }

    public func now() -> Date { isFollowingReference ? reference.now() : serverNow() }

    public func sleep(until deadline: Date) async throws {
        while true {
            if isFollowingReference { return try await reference.sleep(until: deadline) }
            let remaining = deadline.timeIntervalSince(now())
            if remaining <= 0 { return }
            try await Task.sleep(nanoseconds: UInt64(min(remaining, 1) * 1_000_000_000))
        }
    }
}
