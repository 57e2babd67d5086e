import AccessApp
import Foundation

/// A clock that moves only when told to: sleepers wake when `advance` passes their deadline. For tests of
/// what runs on an `AppClock` (EffectRunner, Store); the app itself never runs on it.
public final class ManualClock: AppClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var sleepers: [(id: UUID, deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = []

    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = now }

    public func now() -> Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) {
        let due: [CheckedContinuation<Void, any Error>] = lock.withLock {
            current += seconds
            let ready = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return ready.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    public func sleep(until deadline: Date) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if deadline <= current || Task.isCancelled { return true }
                    sleepers.append((id, deadline, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            try Task.checkCancellation()
        } onCancel: {
            let cancelled = lock.withLock {
                let found = sleepers.first { $0.id == id }
                sleepers.removeAll { $0.id == id }
                return found?.continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// How many sleepers are waiting: lets tests know a timer has been scheduled.
    public var pendingSleepers: Int { lock.withLock { sleepers.count } }
}
