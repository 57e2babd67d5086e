import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Issue 16: with a database file, faults, the clock and the journal survive a graceful restart.
@Suite struct SavedStateTests {
    @Test func faultsClockAndJournalComeBackAfterARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("saved-\(UUID().uuidString).sqlite")
            .path
        defer {
            for suffix in ["", "-wal", "-shm", ".key"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let faults = FaultSettings(
            latencyMs: 5, statuses: [PathFault(path: "/me/profile", status: 500)],
            endpoints: [Components.Schemas.EndpointFault(path: "/health", kind: .status, status: 418)])
        let (before, clockBefore, lastID, posted) = try await TestBackend.with(databasePath: path) { backend in
            #expect(try await backend.post("/_admin/faults", faults).status == 200)
            _ = try await backend.advance(seconds: 3_600)
            #expect(
                try await backend.send(.GET, "/health", headers: [("X-Request-ID", "before-restart")]).status == 418)
            let settings: FaultSettings = try await backend.get("/_admin/faults").decode()
            let clock: ClockState = try await backend.get("/_admin/clock").decode()
            let journal: [JournalEntry] = try await backend.get("/_admin/journal?limit=500").decode()
            let posted = try #require(journal.last { $0.method == "POST" && $0.path == "/_admin/faults" })
            return (settings, clock, journal.last?.id ?? 0, posted)
        }
        try await TestBackend.with(databasePath: path) { backend in
            let settings: FaultSettings = try await backend.get("/_admin/faults").decode()
            #expect(settings == before)
            #expect(try await backend.get("/health").status == 418)
            let clock: ClockState = try await backend.get("/_admin/clock").decode()
            #expect(clock.now == clockBefore.now)
            #expect(clock.frozen == clockBefore.frozen)
            let journal: [JournalEntry] = try await backend.get("/_admin/journal?limit=500").decode()
            let old = try #require(journal.first { $0.requestId == "before-restart" })
            #expect(old.status == 418 && old.fault == "status")
            // Bodies come back as the JSON values they were saved as.
            let restored = try #require(journal.first { $0.id == posted.id })
            #expect(posted.requestBody != nil)
            #expect(restored.requestBody == posted.requestBody && restored.responseBody == posted.responseBody)
            // Numbering goes on: the requests after the restart come after every earlier one.
            let newer = journal.filter { $0.id > lastID }
            #expect(!newer.isEmpty)
            #expect(journal.map(\.id) == journal.map(\.id).sorted())
        }
    }
}
