import Foundation
import TerminalKit

/// Holds the state, runs every action through `reduce`, and the effects through the runner.
/// Safe to call from any thread: the terminal loop, HTTP replies and timers all send here.
public final class Store: @unchecked Sendable {
    private let lock = NSLock()
    private var current: AppState
    private var quitRequested = false
    private let clock: any AppClock
    private let services: any SystemServices
    private var runner: EffectRunner!
    private let onChange: @Sendable () -> Void

    /// `onChange` is called after every action, from the thread that sent it: the terminal
    /// loop uses it to wake up and repaint.
    public init(
        state: AppState, clock: any AppClock, backendWaitClock: (any AppClock)? = nil, services: any SystemServices,
        performer: (any RequestPerforming)?, onChange: @escaping @Sendable () -> Void = {}
    ) {
        current = state
        self.clock = clock
        self.services = services
        self.onChange = onChange
        runner = EffectRunner(
            clock: clock, backendWaitClock: backendWaitClock, services: services, performer: performer
        ) { [weak self] action in
            self?.send(action)
        }
    }

    public var state: AppState { lock.withLock { current } }
    public var isQuitting: Bool { lock.withLock { quitRequested } }

    public func send(_ action: Action) {
        let effects: [Effect] = lock.withLock {
            current.now = clock.now()
            let effects = reduce(&current, action)
            if effects.contains(.quit) { quitRequested = true }
            return effects
        }
        for effect in effects {
            if case .export(let format) = effect {
                send(.exported(export(format)))
            } else if case .saveBugReport = effect {
                let state = self.state
                let screen = render(state.concealedForRecording, size: state.size ?? .standard).text()
                Task { [services] in self.send(.exported(await services.saveBugReport(screen: screen))) }
            } else {
                runner.run(effect)
            }
        }
        onChange()
    }

    /// The screen as it is drawn now, in the format, under a name with the wall clock's time (the app's
    /// clock may be the backend's, moved days ahead).
    private func export(_ format: ExportFormat) -> Result<String, ExportFailure> {
        let state = self.state
        let grid = render(state, size: state.size ?? .standard)
        let shown = state.options.ascii ? grid.asciiFallback() : grid
        let screenID = state.top.as(PreviewScreen.self)?.entryID ?? state.top.id
        let text = GridExport.export(
            shown, as: format, theme: .named(state.options.theme), title: "AccessDeck · \(screenID)")
        return services.saveExport(text, named: format.fileName(screenID: screenID, at: Date()))
    }

    /// Requests sent whose replies have not been handled yet: `accessdeck play --live` waits for none
    /// before its next step.
    public var requestsInFlight: Int { runner.requestsInFlight }

    public func stop() { runner.cancelAll() }
}
