import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// `GET /_admin/state` (issue 29): what another tool changed, for the app's status strip and its check that
/// the world it shows is still the one loaded.
@Suite struct AdminStateTests {
    /// Issue 48 item 19: a clock a fraction of a second behind the machine's said `"clock_offset_seconds": -0`.
    @Test func aClockAFractionBehindIsNoOffsetNotMinusZero() throws {
        let wall = Date(timeIntervalSince1970: 1_800_000_000)
        let offset = ContractHandler.clockOffset(now: wall - 0.3, wall: wall)
        #expect(offset == 0 && offset.sign == .plus)
        let json = String(decoding: try JSONEncoder().encode([offset]), as: UTF8.self)
        #expect(json == "[0]")
        #expect(ContractHandler.clockOffset(now: wall + 300.4, wall: wall) == 300)
    }

    @Test func everyScenarioLoadRaisesTheEpochWhoeverAsked() async throws {
        try await TestBackend.with { backend in
            let start = try await backend.get("/_admin/state").decode(AdminState.self)
            #expect(start.scenario == "default")
            #expect(start.epoch >= 1)
            let loaded = try await backend.post("/_admin/scenario", LoadScenarioBody(name: "coach"))
                .decode(ScenarioLoaded.self)
            #expect(loaded.epoch == start.epoch + 1)
            let after = try await backend.get("/_admin/state").decode(AdminState.self)
            #expect(after.scenario == "coach")
            #expect(after.epoch == loaded.epoch)
            // The same scenario again is a reset too: what the app showed is gone.
            _ = try await backend.post("/_admin/scenario", LoadScenarioBody(name: "coach"))
            #expect(try await backend.get("/_admin/state").decode(AdminState.self).epoch == loaded.epoch + 1)
        }
    }

    /// Issue 48 item 14: a restart on a fresh database starts the epochs over, so only the run of the server
    /// tells a client the backend restarted: the same for every look and world of one run, another after a start.
    @Test func namesTheRunOfTheServerAnotherAfterARestart() async throws {
        let (first, again, world) = try await TestBackend.with { backend in
            let first = try await backend.get("/_admin/state").decode(AdminState.self)
            _ = try await backend.post("/_admin/scenario", LoadScenarioBody(name: "coach"))
            let again = try await backend.get("/_admin/state").decode(AdminState.self)
            _ = try await backend.get("/w/bob/_admin/state")
            let world = try await backend.get("/w/bob/_admin/state").decode(AdminState.self)
            return (first, again, world)
        }
        let restarted = try await TestBackend.with { backend in
            try await backend.get("/_admin/state").decode(AdminState.self)
        }
        let instance = try #require(first.instance)
        #expect(!instance.isEmpty)
        #expect(again.instance == instance)
        #expect(world.instance == instance)
        #expect(restarted.instance != nil && restarted.instance != instance)
        // What the epoch alone cannot tell: the restarted backend's is where the first one's began.
        #expect(restarted.epoch == first.epoch)
    }

    @Test func reportsTheFaultsAndTheClockAsTheyStand() async throws {
        try await TestBackend.with { backend in
            let before = try await backend.get("/_admin/state").decode(AdminState.self)
            #expect(before.faults == FaultSettings())
            #expect(before.clock.frozen)
            _ = try await backend.post("/_admin/faults", FaultSettings(latencyMs: 2000))
            _ = try await backend.advance(seconds: 300)
            let after = try await backend.get("/_admin/state").decode(AdminState.self)
            #expect(after.faults.latencyMs == 2000)
            #expect(after.clock.now.timeIntervalSince(before.clock.now) == 300)
            // The offset is measured against the machine's time, which a test does not assert on: whole seconds.
            #expect(after.clockOffsetSeconds == after.clockOffsetSeconds.rounded())
        }
    }

    /// Polled every few seconds by the app: it must not push the calls QA looks for out of the journal.
    @Test func isNotKeptInTheJournal() async throws {
        try await TestBackend.with { backend in
            _ = try await backend.get("/health")
            for _ in 0..<3 { _ = try await backend.get("/_admin/state") }
            let paths = try await backend.get("/_admin/journal").decode([JournalEntry].self).map(\.path)
            #expect(paths.contains("/health"))
            #expect(!paths.contains("/_admin/state"))
        }
    }
}
