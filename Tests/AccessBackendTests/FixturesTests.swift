import AccessAPI
import AccessBackend
import Foundation
import Testing

/// Where fixtures are found, and a scenario's own clock.
@Suite struct FixturesTests {
    /// The environment is handed in: a `setenv` here races every test that reads `environ` on another
    /// thread (glibc may free the array under it), the likeliest cause of a SIGSEGV of the whole test
    /// process seen once in CI.
    @Test func environmentVariableWins() {
        let directory = Fixtures.defaultDirectory(environment: ["ACCESSDECK_FIXTURES": "/some/where/fixtures"])
        #expect(directory.path == "/some/where/fixtures")
    }

    @Test func anEmptyVariableCountsAsUnset() {
        #expect(Fixtures.defaultDirectory(environment: ["ACCESSDECK_FIXTURES": ""]).lastPathComponent == "fixtures")
    }

    @Test func scenarioClockStartsWhereTheScenarioSays() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let json = """
            {"description": "fixed time", "clock": {"start": "2026-03-10T09:00:00Z", "frozen": true},
             "user": {"id": "u", "phone": "+995511100000"},
             "otp_sends": [{"phone": "+995511100000", "seconds_ago": 10}]}
            """
        try Data(json.utf8).write(to: root.appendingPathComponent("scenarios/fixed.json"))
        // frozenClock nil: the scenario decides.
        try await TestBackend.with(configuration: .init(scenario: "fixed", fixturesDirectory: root)) { backend in
            let clock: ClockState = try await backend.get("/_admin/clock").decode()
            #expect(clock.frozen)
            #expect(clock.now == ISO8601DateFormatter().date(from: "2026-03-10T09:00:00Z"))
            // The send 10 s before the start still holds the 30 s cooldown: 20 s to go.
            let token = try await backend.signIn().accessToken
            let reply = try await backend.requestOTP("+995511100000", .reauth, token: token)
            #expect(reply.status == 429)
            #expect(reply.error?.retryAfter == 20)
        }
    }
}
