import Foundation
import Synchronization

/// What the proxy has seen: how many exchanges it forwarded, every contract break among them, and what the traffic
/// says of each watched rule.
public final class ProxyLog: Sendable {
    private struct State {
        var started = 0
        var finished = 0
        var breaks: [ContractBreak] = []
        var watch = WorldRuleWatch()
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let onBreak: @Sendable (ContractBreak) -> Void
    /// What the watchers keep of a token, id or destination, one key for the proxy's run.
    let digest = Digester()

    /// `--record`'s file, when the proxy records.
    private let recorder: Recorder?

    init(onBreak: @escaping @Sendable (ContractBreak) -> Void = { _ in }, recorder: Recorder? = nil) {
        self.onBreak = onBreak
        self.recorder = recorder
    }

    /// The next exchange's number, 1 for the first.
    func begin() -> Int {
        state.withLock { s in
            s.started += 1
            return s.started
        }
    }

    /// An exchange is over (its answer's body has passed through), with the breaks found in it and what the rules
    /// read of it. The watchers see the exchanges in the order they finish.
    func finish(breaks found: [ContractBreak], observed: Observation, exchange: ProxyExchange, path: String) {
        let ready = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.finished += 1
            s.breaks += found
            s.watch.see(observed)
            // Under the lock: the recording keeps the order the watchers saw.
            recorder?.append(RecordedExchange(exchange: exchange, path: path, observation: observed))
            let (ready, waiting) = (
                s.waiters.filter { $0.count <= s.finished }, s.waiters.filter { $0.count > s.finished }
            )
            s.waiters = waiting
            return ready.map(\.continuation)
        }
        for each in found { onBreak(each) }
        for waiter in ready { waiter.resume() }
    }

    /// Exchanges whose answers have passed through whole.
    public var exchanges: Int { state.withLock { $0.finished } }

    public var contractBreaks: [ContractBreak] { state.withLock { $0.breaks } }

    /// Each watched rule's verdict so far, in the catalogue's order.
    public var verdicts: [RuleVerdict] { state.withLock { $0.watch.verdicts } }

    /// Everything found so far, at one moment.
    public var findings: ProxyFindings {
        state.withLock { ProxyFindings(exchanges: $0.finished, contractBreaks: $0.breaks, rules: $0.watch.verdicts) }
    }

    func closeRecording() { recorder?.close() }

    /// Returns once every exchange begun so far is over: after a client's last answer, the findings are whole.
    public func waitUntilSettled() async {
        await waitForExchanges(state.withLock { $0.started })
    }

    /// Returns once `count` exchanges are over: an answer's last byte reaches the client a moment before the proxy
    /// has checked it, so a test asks for the findings after this.
    public func waitForExchanges(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Bool in
                guard s.finished < count else { return true }
                s.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
