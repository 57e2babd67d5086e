import Foundation
import TerminalKit

/// The outside world the runner hands clipboard and URL work to (the terminal, the OS).
public protocol SystemServices: Sendable {
    func copyToClipboard(_ text: String)
    func open(_ url: URL)
    /// Writes an exported screen into the working directory; the path written, or the reason it was not.
    func saveExport(_ text: String, named name: String) -> Result<String, ExportFailure>
}

/// Performs effects: timers on the injected clock, clipboard, URLs. Actions it produces go
/// back through `send`.
public final class EffectRunner: @unchecked Sendable {
    private let clock: any AppClock
    private let services: any SystemServices
    private let send: @Sendable (Action) -> Void
    private let performer: ClientPerformer?
    private let lock = NSLock()
    private var timers: [TimerID: Task<Void, Never>] = [:]
    private var inFlight = 0

    /// Without a `performer` (no backend), requests are answered as offline.
    public init(
        clock: any AppClock, services: any SystemServices, performer: ClientPerformer?,
        send: @escaping @Sendable (Action) -> Void
    ) {
        self.clock = clock
        self.services = services
        self.performer = performer
        self.send = send
    }

    /// Runs one effect; `.quit` is the store's business and is ignored here.
    public func run(_ effect: Effect) {
        switch effect {
        case .request(let request, let id):
            let performer = self.performer
            let clock = self.clock
            let send = self.send
            lock.withLock { inFlight += 1 }
            Task {
                let result =
                    await performer?.perform(request, now: clock.now()) ?? .failure(.offline(reason: "no backend"))
                send(.response(id, result))
                // After the reply is handled, so the requests it started are counted first.
                self.lock.withLock { self.inFlight -= 1 }
            }
        case .after(let seconds, let action, let id):
            let deadline = clock.now() + seconds
            let clock = self.clock
            let send = self.send
            let task = Task {
                do {
                    try await clock.sleep(until: deadline)
                    send(action)
                } catch {}
            }
            lock.withLock { timers.updateValue(task, forKey: id) }?.cancel()
        case .cancel(let id):
            lock.withLock { timers.removeValue(forKey: id) }?.cancel()
        case .copy(let text):
            services.copyToClipboard(text)
        case .open(let url):
            services.open(url)
        case .signOutLocally:
            let performer = self.performer
            Task { await performer?.signOutLocally() }
        case .export, .quit:
            // The store's business: an export needs the state it renders.
            break
        }
    }

    /// Requests sent whose replies have not been handled yet.
    public var requestsInFlight: Int { lock.withLock { inFlight } }

    public func cancelAll() {
        let all = lock.withLock {
            defer { timers.removeAll() }
            return Array(timers.values)
        }
        for task in all { task.cancel() }
    }
}

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
        state: AppState, clock: any AppClock, services: any SystemServices, performer: ClientPerformer?,
        onChange: @escaping @Sendable () -> Void = {}
    ) {
        current = state
        self.clock = clock
        self.services = services
        self.onChange = onChange
        runner = EffectRunner(clock: clock, services: services, performer: performer) { [weak self] action in
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
