import Synchronization

/// When each access token last moved its sign-in's "last seen", and from which address. A sign-in's last seen
/// is written at most once a `SessionListService.lastSeenStep` per token unless its address changes: a write
/// on every authenticated call would cost each of them a transaction (and empty `SessionLookupCache`).
final class LastSeenThrottle: Sendable {
    /// A burst of distinct tokens cannot grow it without bound: past this it starts over.
    static let capacity = 4096

    private struct Mark {
        var at: Double
        var address: String?
    }
    private let marks = Mutex([String: Mark]())

    /// Whether a call with this token from `address` at `now` should write last seen; if so, it is marked.
    func shouldWrite(_ accessHash: String, address: String?, now: Double, step: Double) -> Bool {
        marks.withLock { marks in
            if let mark = marks[accessHash], mark.address == address, now - mark.at < step, now >= mark.at {
                return false
            }
            if marks.count >= Self.capacity { marks.removeAll() }
            marks[accessHash] = Mark(at: now, address: address)
            return true
        }
    }
}
