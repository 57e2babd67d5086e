import AccessAPI
import Foundation
import GRDB
import Logging
import Synchronization

/// With `--db FILE`, what lives in memory — faults, the clock, the journal's newest entries — is saved
/// into the database and put back by the next start on the same file. Saves are batched (at most one a
/// second, and one at shutdown) so no request waits on SQLite for the journal.
final class StateSaver: Sendable {
    private let store: Store
    private let faults: FaultService
    private let clock: BackendClock
    private let journal: JournalService
    static let interval: Duration = .seconds(1)

    /// What the last save wrote, so a quiet second writes nothing.
    private struct Saved {
        var faults: FaultSettings?
        var clock: BackendClock.State?
        var journalID = 0
    }
    private let saved = Mutex(Saved())
    private let loop = Mutex<Task<Void, Never>?>(nil)

    init(store: Store, faults: FaultService, clock: BackendClock, journal: JournalService) {
        self.store = store
        self.faults = faults
        self.clock = clock
        self.journal = journal
    }

    /// Puts back what an earlier run saved. Returns whether the clock was among it.
    @discardableResult
    func restore() throws -> Bool {
        let decoder = JSONDecoder()
        let (faultsText, clockText, entryTexts) = try store.pool.read { db in
            (
                try SavedStateRecord.fetchOne(db, key: SavedStateRecord.Key.faults)?.value,
                try SavedStateRecord.fetchOne(db, key: SavedStateRecord.Key.clock)?.value,
                try JournalRecord.fetchAll(
                    db, sql: "SELECT * FROM journal ORDER BY id DESC LIMIT ?", arguments: [JournalService.capacity]
                ).map(\.entry)
            )
        }
        var restored = Saved()
        if let faultsText,
            let settings = try? APIJSON.makeContractDecoder().decode(
                FaultSettings.self, from: Data(faultsText.utf8))
        {
            faults.restore(settings)
            restored.faults = settings
        }
        if let clockText, let state = try? decoder.decode(BackendClock.State.self, from: Data(clockText.utf8)) {
            clock.restore(state)
            restored.clock = state
        }
        let entries = entryTexts.reversed().compactMap { text in
            try? APIJSON.makeContractDecoder().decode(JournalEntry.self, from: Data(text.utf8))
        }
        journal.restore(entries)
        restored.journalID = journal.lastID
        saved.withLock { $0 = restored }
        return restored.clock != nil
    }

    /// Writes what changed since the last save, in one transaction.
    func save() throws {
        let last = saved.withLock { $0 }
        let currentFaults = faults.persistent
        let currentClock = clock.saved
        let newEntries = journal.entries(after: last.journalID)
        guard currentFaults != last.faults || currentClock != last.clock || !newEntries.isEmpty else { return }
        let encoder = APIJSON.makeContractEncoder()
        let faultsText = String(decoding: try encoder.encode(currentFaults), as: UTF8.self)
        let clockText = String(decoding: try JSONEncoder().encode(currentClock), as: UTF8.self)
        let rows = try newEntries.map { ($0.id, String(decoding: try encoder.encode($0), as: UTF8.self)) }
        try store.pool.write { db in
            try SavedStateRecord(key: .faults, value: faultsText).upsert(db)
            try SavedStateRecord(key: .clock, value: clockText).upsert(db)
            for (id, entry) in rows {
                try JournalRecord(id: id, entry: entry).insert(db, onConflict: .replace)
            }
            if let newest = rows.last?.0 {
                try db.execute(
                    sql: "DELETE FROM journal WHERE id <= ?", arguments: [newest - JournalService.capacity])
            }
        }
        saved.withLock { s in
            s.faults = currentFaults
            s.clock = currentClock
            s.journalID = newEntries.last?.id ?? s.journalID
        }
    }

    /// Saves every `interval` until `stop()`.
    func start(logger: Logger) {
        let task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.interval)
                do {
                    try save()
                } catch {
                    logger.error("could not save faults, clock and journal", metadata: ["type": "\(type(of: error))"])
                }
            }
        }
        loop.withLock { $0 = task }
    }

    /// Ends the periodic saves and saves once more.
    func stop() async throws {
        let task = loop.withLock { $0 }
        task?.cancel()
        await task?.value
        try save()
    }
}
