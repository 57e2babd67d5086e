import Foundation
import Synchronization

/// The single source of time for every rule. QA and tests move it with `POST /_admin/clock/advance`;
/// nothing in the backend reads `Date()` directly, so an advanced clock is seen everywhere at once.
public final class BackendClock: Sendable {
    /// Everything the clock is: a restart on the same database file puts it back (`StateSaver`).
    struct State: Codable, Equatable, Sendable {
        var anchor: Date
        var offset: TimeInterval
        var frozen: Bool
    }

    private let state: Mutex<State>

    /// Frozen: time moves only when advanced (tests, reproducible scenarios).
    /// Running: wall time plus the accumulated advances (the interactive app, so countdowns tick).
    public init(start: Date = Date(), frozen: Bool) {
        state = Mutex(State(anchor: Self.wholeSecond(start), offset: 0, frozen: frozen))
    }

    /// The contract shows whole seconds; starting on one keeps every deadline exactly representable.
    private static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    public var isFrozen: Bool { state.withLock { $0.frozen } }

    var saved: State { state.withLock { $0 } }

    func restore(_ saved: State) {
        state.withLock { $0 = saved }
    }

    public func now() -> Date {
        state.withLock { s in
            let base = s.frozen ? s.anchor : Date()
            return base.addingTimeInterval(s.offset)
        }
    }

    public func advance(by seconds: TimeInterval) {
        state.withLock { $0.offset += max(0, seconds) }
    }

    /// Stops time where it stands: from now on it moves only when set or advanced.
    public func freeze() {
        state.withLock { s in
            guard !s.frozen else { return }
            // Up to the next whole second (as the contract shows time), so freezing never moves it back.
            s.anchor = Date(
                timeIntervalSince1970: Date().addingTimeInterval(s.offset).timeIntervalSince1970.rounded(.up))
            s.offset = 0
            s.frozen = true
        }
    }

    /// Lets time run on from where it stands (wall time moves it again).
    public func unfreeze() {
        state.withLock { s in
            guard s.frozen else { return }
            s.offset = s.anchor.addingTimeInterval(s.offset).timeIntervalSince(Date())
            s.frozen = false
        }
    }

    /// A scenario load restarts time from the scenario's start.
    public func reset(start: Date?, frozen: Bool) {
        state.withLock { s in
            s.frozen = frozen
            s.offset = 0
            if let start {
                s.anchor = start
                if !frozen { s.offset = start.timeIntervalSince(Date()) }
            } else {
                s.anchor = Self.wholeSecond(Date())
            }
        }
    }
}
