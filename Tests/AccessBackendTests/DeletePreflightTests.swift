import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `GET /me/delete-preflight` (seeds 000/001): the blockers, in the seed's order, worked out from the
/// scenario's data and the backend clock.
@Suite struct DeletePreflightTests {
    private static let hour: TimeInterval = 3600

    private func preflight(_ backend: TestBackend) async throws -> DeletePreflight {
        let token = try await backend.signIn().accessToken
        return try await backend.get("/me/delete-preflight", token: token).decode()
    }

    private func now(_ backend: TestBackend) async throws -> Date {
        try await backend.get("/_admin/clock").decode(ClockState.self).now
    }

    /// The payout of `coach-payout` from a Wednesday 09:30 UTC, so the hold ends long before Monday's
    /// automatic payout whatever day the tests run on.
    private func withPayoutFromWednesday(_ body: (TestBackend) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let json = """
            {"description": "payout from a Wednesday", "clock": {"start": "2026-04-29T09:30:00Z", "frozen": true},
             "user": {"id": "usr_coach", "role": "coach", "phone": "+995511100000"},
             "payout": {"currency": "EUR", "available_minor": 24550, "on_hold_minor": 7500,
                        "hold_releases_in_hours": 18, "automatic_payout_on": "monday"}}
            """
        try Data(json.utf8).write(to: root.appendingPathComponent("scenarios/wednesday.json"))
        try await TestBackend.with(configuration: .init(scenario: "wednesday", fixturesDirectory: root), body)
    }

    @Test func theDefaultAthleteHasNoBlockers() async throws {
        try await TestBackend.with { backend in
            let blockers = try await preflight(backend).blockers
            #expect(blockers.isEmpty)
        }
    }

    @Test func aCoachsUpcomingSessionsSoonestFirst() async throws {
        try await TestBackend.with(scenario: "coach-sessions") { backend in
            let start = try await now(backend)
            let blockers = try await preflight(backend).blockers
            #expect(blockers.map(\.kind.known) == [.upcomingSessions])
            let items = try #require(blockers.first?.items)
            #expect(items.map(\.title) == ["Padel with Anna M.", "Group · Tennis (4 athletes)", "Padel with John D."])
            #expect(items.map { $0.startsAt.timeIntervalSince(start) / Self.hour } == [24.5, 57, 95.5])
            #expect(blockers.first?.payout == nil)
        }
    }

    @Test func aSessionThatHasStartedNoLongerBlocks() async throws {
        try await TestBackend.with(scenario: "coach-sessions") { backend in
            _ = try await backend.advance(seconds: 24.5 * Self.hour)
            let items = try #require(try await preflight(backend).blockers.first?.items)
            #expect(items.map(\.title) == ["Group · Tennis (4 athletes)", "Padel with John D."])
        }
    }

    @Test func anAthletesUpcomingBookings() async throws {
        try await TestBackend.with(scenario: "athlete-bookings") { backend in
            let blockers = try await preflight(backend).blockers
            #expect(blockers.map(\.kind.known) == [.upcomingBookings])
            #expect(blockers.first?.items?.map(\.title) == ["Padel with Coach Maria", "Tennis with Coach Vik"])
        }
    }

    @Test func aCoachsPendingPayout() async throws {
        try await TestBackend.with(scenario: "coach-payout") { backend in
            let start = try await now(backend)
            let blockers = try await preflight(backend).blockers
            #expect(blockers.map(\.kind.known) == [.pendingPayout])
            let payout = try #require(blockers.first?.payout)
            #expect(payout.currency == "EUR")
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = .gmt
            let monday = payout.nextAutomaticPayoutAt
            #expect(utc.component(.weekday, from: monday) == 2 && utc.component(.hour, from: monday) == 9)
            #expect(monday > start && monday <= start.addingTimeInterval(7 * 24 * Self.hour))
            #expect(payout.availableMinor == 24550 && payout.onHoldMinor == 7500)
            #expect(payout.holdReleasesAt == start.addingTimeInterval(18 * Self.hour))
        }
    }

    @Test func sessionsComeBeforeThePayout() async throws {
        try await TestBackend.with(scenario: "coach-both") { backend in
            let blockers = try await preflight(backend).blockers
            #expect(blockers.map(\.kind.known) == [.upcomingSessions, .pendingPayout])
        }
    }

    @Test func moneyOnHoldBecomesAvailableWhenTheHoldEnds() async throws {
        try await withPayoutFromWednesday { backend in
            let start = try await now(backend)
            let first = try #require(try await preflight(backend).blockers.first?.payout)
            #expect(first.availableMinor == 24550 && first.onHoldMinor == 7500)
            #expect(first.holdReleasesAt == start.addingTimeInterval(18 * Self.hour))
            #expect(first.nextAutomaticPayoutAt == ISO8601DateFormatter().date(from: "2026-05-04T09:00:00Z"))

            _ = try await backend.advance(seconds: 18 * Self.hour - 1)
            let before = try #require(try await preflight(backend).blockers.first?.payout)
            #expect(before.availableMinor == 24550 && before.onHoldMinor == 7500)

            let released = try await backend.advance(seconds: 1)
            #expect(released.events.contains { $0.kind == "payout_hold_released" })
            let after = try #require(try await preflight(backend).blockers.first?.payout)
            #expect(after.availableMinor == 32050 && after.onHoldMinor == 0 && after.holdReleasesAt == nil)
        }
    }

    @Test func mondaysAutomaticPayoutClearsTheBlocker() async throws {
        try await withPayoutFromWednesday { backend in
            // Wednesday 09:30 to Monday 09:00: 4 days and 23.5 hours.
            let untilMonday = 4 * 24 * Self.hour + 23.5 * Self.hour
            _ = try await backend.advance(seconds: untilMonday - 1)
            #expect(try await preflight(backend).blockers.first?.payout?.availableMinor == 32050)
            let paid = try await backend.advance(seconds: 1)
            #expect(paid.events.map(\.kind).contains("automatic_payout"))
            let blockers = try await preflight(backend).blockers
            #expect(blockers.isEmpty)
        }
    }
}
