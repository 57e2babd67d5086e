import Foundation
import Testing

@testable import AccessApp

/// Drives `reduce` the way the app does, and makes a test account for everything it does:
/// every state change must be described, every effect listed, every timer's action received.
/// Time only moves with `advance(by:)`.
final class ReducerHarness {
    private(set) var state: AppState
    private(set) var now: Date
    private var timers: [(deadline: Date, action: Action, id: TimerID)] = []
    private var received: [Action] = []

    init(_ state: AppState) {
        self.state = state
        now = state.now
    }

    /// Sends an action; `update` must turn the old state into exactly the new one.
    func send(
        _ action: Action, effects expected: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation,
        _ update: (inout AppState) -> Void = { _ in }
    ) {
        if !received.isEmpty {
            Issue.record("Timer actions arrived and were not received: \(received)", sourceLocation: sourceLocation)
            received.removeAll()
        }
        step(action, expected: expected, sourceLocation: sourceLocation, update)
    }

    /// Asserts the next action a timer delivered, then handles it like `send`.
    func receive(
        _ action: Action, effects expected: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation,
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

    /// Moves the test clock; timers that come due queue their actions for `receive`.
    func advance(by seconds: TimeInterval) {
        now += seconds
        let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        timers.removeAll { $0.deadline <= now }
        received.append(contentsOf: due.map(\.action))
    }

    /// Fails if anything is left unaccounted for: received actions or timers still pending.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        if !received.isEmpty {
            Issue.record("Timer actions arrived and were not received: \(received)", sourceLocation: sourceLocation)
        }
        if !timers.isEmpty {
            Issue.record("Timers still pending: \(timers.map(\.id))", sourceLocation: sourceLocation)
        }
    }

    private func step(
        _ action: Action, expected: [Effect], sourceLocation: SourceLocation, _ update: (inout AppState) -> Void
    ) {
        var actual = state
        actual.now = now
        var expectedState = actual
        // A reply is always taken off the ledger: nobody waits for it once it arrives.
        if case .response(let id, _) = action { expectedState.pending[id] = nil }
        update(&expectedState)
        let effects = AccessApp.reduce(&actual, action)
        if actual != expectedState {
            let diff = lineDiff(describe(expectedState), describe(actual))
            Issue.record(
                "State after \(action) differs from the one the test described (− expected, + actual):\n\(diff)",
                sourceLocation: sourceLocation)
        }
        if effects != expected {
            Issue.record(
                "Effects of \(action) differ.\n  expected: \(expected)\n  actual:   \(effects)",
                sourceLocation: sourceLocation)
        }
        state = actual
        for effect in effects {
            switch effect {
            case .after(let seconds, let action, let id):
                timers.removeAll { $0.id == id }
                timers.append((now + seconds, action, id))
            case .cancel(let id):
                timers.removeAll { $0.id == id }
            default:
                break
            }
        }
    }
}

func describe(_ value: some Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
}

/// The lines that differ between two texts, marked − (expected) and + (actual).
func lineDiff(_ expected: String, _ actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var lines: [String] = []
    for index in 0..<max(old.count, new.count) {
        let a = index < old.count ? String(old[index]) : nil
        let b = index < new.count ? String(new[index]) : nil
        if a == b { continue }
        if let a { lines.append("− \(a)") }
        if let b { lines.append("+ \(b)") }
    }
    return lines.joined(separator: "\n")
}
