import Foundation
import TerminalKit

/// The outside world the runner hands clipboard and URL work to (the terminal, the OS).
public protocol SystemServices: Sendable {
    func copyToClipboard(_ text: String)
    /// Hands `url` to the system's opener; `failed` is called when nothing could open it (no opener, or
    /// the opener gave up: no browser, no mail client), so the person is told.
    func open(_ url: URL, failed: @escaping @Sendable () -> Void)
    /// Writes an exported screen into the working directory; the path written, or the reason it was not.
    func saveExport(_ text: String, named name: String) -> Result<String, ExportFailure>
    /// Writes the bug report of this session into the working directory (issue 51 item 5), `screen` the screen as
    /// drawn with its secrets as dots; the path written, or the reason it was not.
    func saveBugReport(screen: String) async -> Result<String, ExportFailure>
}

extension SystemServices {
    public func saveBugReport(screen: String) async -> Result<String, ExportFailure> {
        .failure(ExportFailure("this app keeps no session to report"))
    }
}

/// Performs effects: timers on the injected clock, clipboard, URLs. Actions it produces go
/// back through `send`.
public final class EffectRunner: @unchecked Sendable {
    private let clock: any AppClock
    /// What the waits for the backend itself run on (`TimerID.waitsForTheBackend`): the app clock follows the
    /// reference backend's, and QA may freeze that; "is it back?" must still be asked after real seconds.
    private let backendWaitClock: any AppClock
    private let services: any SystemServices
    private let send: @Sendable (Action) -> Void
    private let performer: (any RequestPerforming)?
    private let lock = NSLock()
    private var timers: [TimerID: Task<Void, Never>] = [:]
    private var inFlight = 0

    /// Without a `performer` (no backend), requests are answered as offline.
    /// `backendWaitClock`: the clock of the waits for the backend; the app clock when nil (tests move one clock).
    public init(
        clock: any AppClock, backendWaitClock: (any AppClock)? = nil, services: any SystemServices,
        performer: (any RequestPerforming)?, send: @escaping @Sendable (Action) -> Void
    ) {
        self.clock = clock
        self.backendWaitClock = backendWaitClock ?? clock
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
            let clock = id.waitsForTheBackend ? backendWaitClock : self.clock
            let deadline = clock.now() + seconds
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
            let send = self.send
            services.open(url) { send(.openFailed(url)) }
        case .signOutLocally:
            let performer = self.performer
            Task { await performer?.signOutLocally() }
        case .logOut:
            let performer = self.performer
            Task { await performer?.logOut() }
        case .export, .saveBugReport, .quit:
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
