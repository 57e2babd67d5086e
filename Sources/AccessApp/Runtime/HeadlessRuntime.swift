import Foundation
import TerminalKit

/// Runs the app without a terminal and on its own clock, deterministically: timers fire in
/// deadline order when time is advanced. `accessdeck play` replays tapes on it.
public struct HeadlessRuntime {
    public private(set) var state: AppState
    public private(set) var size: Size
    public private(set) var quit = false
    /// What the app asked the outside world to do (copy, open, backend calls, sign-out), in order.
    public private(set) var externalEffects: [Effect] = []
    private var timers: [(deadline: Date, action: Action, id: TimerID)] = []

    public init(state: AppState, size: Size) {
        self.state = state
        self.state.size = size
        self.size = size
    }

    public var screen: CellGrid { render(state, size: size) }

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
            case .copy, .open, .request, .signOutLocally:
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
}

/// Replays a tape; `onScreen` receives a caption and the screen at each `screen` step (and,
/// when `everyStep` is set, after every step).
public func play(
    _ tape: Tape, from state: AppState, everyStep: Bool = false, onScreen: (String, CellGrid) -> Void
) -> HeadlessRuntime {
    var runtime = HeadlessRuntime(state: state, size: tape.size)
    for entry in tape.steps {
        let (line, step) = (entry.line, entry.step)
        guard !runtime.quit else { break }
        switch step {
        case .input(let event): runtime.send(.input(event))
        case .wait(let seconds): runtime.advance(by: seconds)
        case .screen: onScreen("line \(line)", runtime.screen)
        }
        if everyStep, step != .screen { onScreen("line \(line): \(step)", runtime.screen) }
    }
    return runtime
}
