import Foundation
import TerminalKit

/// Runs the app without a terminal and on its own clock, deterministically: timers fire in
/// deadline order when time is advanced. `TapeReplay` (`accessdeck play`) replays tapes on it.
public struct HeadlessRuntime {
    public private(set) var state: AppState
    public private(set) var size: Size
    public private(set) var quit = false
    /// What the app asked the outside world to do (copy, open, backend calls, sign-out), in order.
    public private(set) var externalEffects: [Effect] = []
    private var timers: [(deadline: Date, action: Action, id: TimerID)] = []
    /// How many of `externalEffects` `takeExternalEffects` has handed out.
    private var handedOut = 0

    public init(state: AppState, size: Size) {
        self.state = state
        self.state.size = size
        self.size = size
    }

    public var screen: CellGrid { render(state, size: size) }
    /// The screen as `play` prints it: typed codes and shown passwords concealed, since stdout ends up in
    /// logs and bug reports (`expect` still reads `screen`).
    public var printedScreen: CellGrid { render(state.concealingScreenSecrets, size: size) }

    public mutating func send(_ action: Action) {
        guard !quit else { return }
        if case .input(.resize(let newSize)) = action { size = newSize }
        let effects = reduce(&state, action)
        for effect in effects {
            switch effect {
            case .after(let seconds, let action, let id):
                timers.removeAll { $0.id == id }
                timers.append((state.now + seconds, action, id))
            case .cancel(let id):
                timers.removeAll { $0.id == id }
            case .quit:
                quit = true
            case .copy, .open, .request, .signOutLocally, .logOut, .export, .saveBugReport:
                externalEffects.append(effect)
            }
        }
    }

    /// Moves the clock, firing each timer at its own deadline so later ones see earlier effects.
    public mutating func advance(by seconds: TimeInterval) {
        let end = state.now + seconds
        while let next = timers.filter({ $0.deadline <= end }).min(by: { $0.deadline < $1.deadline }) {
            timers.removeAll { $0.id == next.id }
            state.now = next.deadline
            send(next.action)
        }
        state.now = end
    }

    /// Takes the clock to `now` (the backend's time): forward fires the timers due on the way; back
    /// (a scenario reloaded) only sets it, and the timers wait longer, as in the app.
    public mutating func follow(_ now: Date) {
        if now >= state.now {
            advance(by: now.timeIntervalSince(state.now))
        } else {
            state.now = now
        }
    }

    /// When the earliest timer fires; nil when none is set.
    public var nextDeadline: Date? { timers.map(\.deadline).min() }

    /// The external effects asked for since the last call, in order: a replay performs them.
    public mutating func takeExternalEffects() -> [Effect] {
        defer { handedOut = externalEffects.count }
        return Array(externalEffects[handedOut...])
    }
}
