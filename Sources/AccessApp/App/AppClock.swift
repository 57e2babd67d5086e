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
/// them without anyone having to tell them.
public final class FollowingClock: AppClock, @unchecked Sendable {
    /// Reads the backend's time: in process for the embedded backend, or the local time plus
    /// the last offset `follow(serverNow:)` measured for one reached over HTTP.
    private let source: @Sendable () -> Date
    /// Asks a remote backend for its time; called at most once a `recheck` while something sleeps.
    private let resync: (@Sendable () async -> Date?)?
    private let recheck: TimeInterval
    private let box: OffsetBox?

    /// Follows a backend in this process: `source` is its clock.
    public init(source: @escaping @Sendable () -> Date, recheck: TimeInterval = 0.2) {
        self.source = source
        resync = nil
        self.recheck = recheck
        box = nil
    }

    /// Follows a backend over HTTP: `resync` fetches its time (nil when it could not).
    public init(resync: @escaping @Sendable () async -> Date?, recheck: TimeInterval = 1) {
        let box = OffsetBox()
        source = { Date().addingTimeInterval(box.value) }
        self.resync = { await resync() }
        self.recheck = recheck
        self.box = box
    }

    public func now() -> Date { source() }

    /// Takes the backend's time as the truth from now on.
    public func follow(serverNow: Date) {
        box?.value = serverNow.timeIntervalSince(Date())
    }

    public func sleep(until deadline: Date) async throws {
        while true {
            if let resync, let serverNow = await resync() { follow(serverNow: serverNow) }
            let remaining = deadline.timeIntervalSince(now())
            if remaining <= 0 { return }
            try await Task.sleep(nanoseconds: UInt64(min(remaining, recheck) * 1_000_000_000))
        }
    }
}

/// The measured offset of a remote backend's clock from this machine's.
private final class OffsetBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: TimeInterval = 0
    var value: TimeInterval {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
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
