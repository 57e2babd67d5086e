import AccessApp
import Foundation
import SnapshotSupport
import Testing

/// Drives `reduce` the way the app does, and makes a test account for everything it does: every state
/// change must be described, every effect listed, every timer's action received. Time only moves with
/// `advance(by:)`.
///
/// There is no call to end a test with: the harness checks completion itself when it is released, at the
/// end of the test that made it. A timer action that arrived and was not received, or a timer still set,
/// is then recorded as an issue of that test, at the line that made the harness. A timer that is meant
/// to outlive the test (a countdown that goes on while its screen is shown) is asserted with
/// `expectRunning(_:)`.
///
/// `exhaustivity: .off` (TCA's) is for a test that follows a long flow and looks at a few things on the
/// way: see `Exhaustivity`.
public final class ReducerHarness {
    /// How much a test must account for.
    public enum Exhaustivity: Sendable {
        /// Everything: every state change described, every effect listed, every timer's action received,
        /// nothing left set at the end (the default).
        case on
        /// Only what the test says. What `update` writes must already hold of the new state (the rest may
        /// have changed too); effects are compared when the test lists them; `advance(by:)` runs the
        /// timers that come due, as the app's runtime would, and nothing is left to receive or to report at
        /// the end.
        case off
    }

    public let exhaustivity: Exhaustivity
    public private(set) var state: AppState
    public private(set) var now: Date
    /// The timers set, in the order they were set (timers due at the same moment fire in that order).
    private var timers: [Timer] = []
    private var received: [Action] = []
    /// The timers the test said keep running (`expectRunning`), as they were then.
    private var expectedRunning: [Timer] = []
    private let madeAt: SourceLocation

    private struct Timer: Equatable {
        var id: TimerID
        var deadline: Date
        var action: Action
    }

    public init(
        _ state: AppState, exhaustivity: Exhaustivity = .on, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.state = state
        self.exhaustivity = exhaustivity
        now = state.now
        madeAt = sourceLocation
    }

    /// The end of the test: nothing may be left unaccounted for.
    deinit {
        guard exhaustivity == .on else { return }
        if !received.isEmpty {
            let message =
                "The test ended with timer actions that arrived and were never received: \(received). "
                + "Receive each with `receive(_:)`."
            Issue.record(Comment(rawValue: message), sourceLocation: madeAt)
        }
        let unaccounted = timers.filter { !expectedRunning.contains($0) }
        if !unaccounted.isEmpty {
            let message =
                "The test ended with timers still set: \(Self.describe(unaccounted, now: now)). Advance the clock "
                + "and receive their actions, or assert that they keep running with `expectRunning(_:)`."
            Issue.record(Comment(rawValue: message), sourceLocation: madeAt)
        }
    }

    /// Sends an action; `update` must turn the old state into exactly the new one (`.off`: what it writes must
    /// hold of the new one). `effects`: all of them (`.off`: when given). Returns the effects, for a test that
    /// reads the requests they carry.
    @discardableResult
    public func send(
        _ action: Action, effects expected: [Effect]? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ update: (inout AppState) -> Void = { _ in }
    ) -> [Effect] {
        if !received.isEmpty {
            Issue.record("Timer actions arrived and were not received: \(received)", sourceLocation: sourceLocation)
            received.removeAll()
        }
        return step(action, expected: expected, sourceLocation: sourceLocation, update)
    }

    /// Asserts the next action a timer delivered, then handles it like `send`. (`.off` runs them in
    /// `advance(by:)`, so there is nothing to receive.)
    public func receive(
        _ action: Action, effects expected: [Effect]? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ update: (inout AppState) -> Void = { _ in }
    ) {
        guard !received.isEmpty else {
            Issue.record("Expected to receive \(action), but no timer has fired.", sourceLocation: sourceLocation)
            return
        }
        let next = received.removeFirst()
        if next != action {
            Issue.record("Received \(next), expected \(action).", sourceLocation: sourceLocation)
        }
        step(next, expected: expected, sourceLocation: sourceLocation, update)
    }

    /// Moves the test clock; timers that come due queue their actions for `receive`, earliest first. `.off`:
    /// each runs at its deadline instead, and the timers it sets in turn run too when they fall due on the way.
    public func advance(by seconds: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation) {
        guard exhaustivity == .on else {
            let end = now + seconds
            while let next = timers.filter({ $0.deadline <= end }).min(by: { $0.deadline < $1.deadline }) {
                timers.removeAll { $0.id == next.id }
                now = max(now, next.deadline)
                step(next.action, expected: nil, sourceLocation: sourceLocation) { _ in }
            }
            now = end
            return
        }
        now += seconds
        let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        timers.removeAll { $0.deadline <= now }
        received.append(contentsOf: due.map(\.action))
    }

    /// Asserts that exactly these timers are set now, each given as the effect that would set it with the
    /// time it has left (`.after(seconds: 1, action: .tick, id: .clock)`), and that they may outlive the
    /// test: a countdown that goes on while its screen is shown. A timer set or moved afterwards must be
    /// accounted for again.
    public func expectRunning(_ expected: Effect..., sourceLocation: SourceLocation = #_sourceLocation) {
        var running: [Timer] = []
        for effect in expected {
            guard case .after(let seconds, let action, let id) = effect, !running.contains(where: { $0.id == id })
            else {
                Issue.record("Not one timer each: \(effect)", sourceLocation: sourceLocation)
                continue
            }
            running.append(Timer(id: id, deadline: now + seconds, action: action))
        }
        if running.count != timers.count || !running.allSatisfy(timers.contains) {
            let message =
                "Timers set differ.\n  expected: \(Self.describe(running, now: now))\n"
                + "  actual:   \(Self.describe(timers, now: now))"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
        expectedRunning = running
    }

    @discardableResult
    private func step(
        _ action: Action, expected: [Effect]?, sourceLocation: SourceLocation, _ update: (inout AppState) -> Void
    ) -> [Effect] {
        var actual = state
        actual.now = now
        var expectedState = actual
        // A reply is always taken off the ledger: nobody waits for it once it arrives.
        if case .response(let id, _) = action { expectedState.pending[id] = nil }
        let effects = reduce(&actual, action)
        // Exhaustive: the test's changes turn the old state into the new. Not: they hold of the new already.
        if exhaustivity == .off { expectedState = actual }
        update(&expectedState)
        if actual != expectedState,
            let diff = LineDiff(expected: Self.dump(expectedState), actual: Self.dump(actual), context: 2)
        {
            Issue.record(
                "State after \(action) differs from the one the test described (- expected, + actual):\n\(diff.text)",
                sourceLocation: sourceLocation)
        } else if actual != expectedState {
            Issue.record(
                "State after \(action) differs from the one the test described, though both dump alike.",
                sourceLocation: sourceLocation)
        }
        if let listed = expected ?? (exhaustivity == .on ? [] : nil), effects != listed {
            Issue.record(
                "Effects of \(action) differ.\n  expected: \(listed)\n  actual:   \(effects)",
                sourceLocation: sourceLocation)
        }
        state = actual
        for effect in effects {
            switch effect {
            case .after(let seconds, let action, let id):
                timers.removeAll { $0.id == id }
                timers.append(Timer(id: id, deadline: now + seconds, action: action))
            case .cancel(let id):
                timers.removeAll { $0.id == id }
            default: break
            }
        }
        return effects
    }

    private static func dump(_ value: some Any) -> String {
        var text = ""
        Swift.dump(value, to: &text)
        return text
    }

    private static func describe(_ timers: [Timer], now: Date) -> String {
        let items = timers.map { ".\($0.id): \($0.action) in \($0.deadline.timeIntervalSince(now)) s" }
        return "[\(items.joined(separator: ", "))]"
    }
}
