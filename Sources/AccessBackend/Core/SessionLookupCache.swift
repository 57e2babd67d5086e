import AccessAPI
import GRDB
import Synchronization

/// The bearer lookups since the last committed write. Every authenticated request reads the same session and
/// user rows, and that read (a pooled connection, SQLite's file locks, a row decoded column by column) cost
/// more than the rest of `GET /me/auth-methods`. Any commit, to any table, empties it, so a revoked session, a
/// deleted user or a changed sign-in method is seen by the very next request, as the database shows it. This
/// process is the database's only writer (`Store` holds the one pool), so no commit goes unseen.
final class SessionLookupCache: Sendable {
    struct Entry: Sendable {
        let user: UserRecord
        let access: AccessLevel
        let assurance: AssuranceLevel
        /// Checked on every hit against the backend's clock, which QA can move.
        let accessExpiresAt: Double
    }

    /// A burst of distinct tokens cannot grow it without bound: past this it starts over.
    static let capacity = 1024

    private struct State {
        /// Bumped by every commit; a lookup read before a commit is not kept after it.
        var generation: UInt64 = 0
        var entries: [String: Entry] = [:]
    }
    private let state = Mutex(State())

    /// The cached session of `accessHash` while it is unexpired at `now`, with the generation to hand back to
    /// `keep` when it had to be read from the database.
    func find(_ accessHash: String, now: Double) -> (hit: Entry?, generation: UInt64) {
        state.withLock { state in
            let entry = state.entries[accessHash].flatMap { $0.accessExpiresAt > now ? $0 : nil }
            return (entry, state.generation)
        }
    }

    /// Keeps a lookup read from the database, unless a commit came since `generation` was read: the row may
    /// predate it.
    func keep(_ entry: Entry, for accessHash: String, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[accessHash] = entry
        }
    }

    func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    /// Empties the cache on every commit of `writer`.
    func watch(_ writer: some DatabaseWriter) {
        writer.add(transactionObserver: CommitWatcher(cache: self), extent: .databaseLifetime)
    }

    private final class CommitWatcher: TransactionObserver {
        let cache: SessionLookupCache
        init(cache: SessionLookupCache) { self.cache = cache }

        // Row-level events are not needed: any commit is enough to start over.
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { cache.invalidate() }
        func databaseDidRollback(_ db: Database) {}
    }
}
