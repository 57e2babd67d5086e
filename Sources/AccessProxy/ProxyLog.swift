import Foundation
import Synchronization

/// What the proxy has seen: how many exchanges it forwarded and every contract break among them.
public final class ProxyLog: Sendable {
    private struct State {
        var started = 0
        var finished = 0
        var breaks: [ContractBreak] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let onBreak: @Sendable (ContractBreak) -> Void

    init(onBreak: @escaping @Sendable (ContractBreak) -> Void = { _ in }) {
        self.onBreak = onBreak
    }

    /// The next exchange's number, 1 for the first.
    func begin() -> Int {
        state.withLock { s in
            s.started += 1
            return s.started
        }
    }

    /// An exchange is over (its answer's body has passed through), with the breaks found in it.
    func finish(breaks found: [ContractBreak]) {
        let ready = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.finished += 1
            s.breaks += found
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
