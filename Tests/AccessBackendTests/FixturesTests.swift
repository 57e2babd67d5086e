import AccessAPI
import AccessBackendTesting
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Where fixtures are found, a scenario's own clock, and its passwords' stored hashes.
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

    /// The app draws this first screen while its backend starts: Settings signed in, or Welcome.
    @Test func whetherAScenarioStartsSignedInIsReadFromItsFile() {
        #expect(Fixtures.startsSignedIn("default", in: TestBackend.fixtures) == true)
        #expect(Fixtures.startsSignedIn("new-user", in: TestBackend.fixtures) == false)
        #expect(Fixtures.startsSignedIn("nope", in: TestBackend.fixtures) == nil)
    }

    /// Each person of every shipped scenario with a password, and the hash stored beside it.
    private static func fixturePasswords() throws -> [(label: String, password: String, hash: String?)] {
        var found: [(String, String, String?)] = []
        for name in Fixtures.scenarioNames(in: TestBackend.fixtures) {
            let file = TestBackend.fixtures.appendingPathComponent("scenarios/\(name).json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let others = (object["others"] as? [[String: Any]]) ?? []
            let people =
                [("user", object["user"] as? [String: Any] ?? [:])]
                + others.enumerated().map { ("others[\($0)]", $1) }
            for (field, person) in people {
                guard let password = person["password"] as? String else { continue }
                found.append(("\(name).json: \(field)", password, person["password_hash"] as? String))
            }
        }
        return found
    }

    /// The loader stores a fixture's hash without checking it (that would cost a bcrypt run per load), so
    /// here every one must verify its password: the two cannot drift apart. A failure prints a fresh hash,
    /// made by the backend's own `PasswordHasher`, to paste into the fixture.
    @Test func everyFixturePasswordHashVerifiesItsPassword() throws {
        let passwords = try Self.fixturePasswords()
        #expect(passwords.count >= 20)
        for (label, password, hash) in passwords {
            let verifies = hash.map { PasswordHasher.verify(password, stored: $0, legacySalt: nil) } ?? false
            #expect(
                verifies,
                "\(label).password_hash does not verify its password; a fresh one: \(PasswordHasher.hash(password))")
            #expect(hash.flatMap(PasswordHasher.cost(ofStored:)) == Int(PasswordHasher.cost), "\(label)")
        }
    }

    /// Starting on a scenario, or switching to one live, stores the fixture's hash as it is: no bcrypt run
    /// on load, and still the hash a sign-in verifies.
    @Test func aScenarioLoadStoresThePrecomputedHash() async throws {
        func stored(_ backend: TestBackend, _ userId: String) async throws -> String? {
            try await backend.running.store.pool.read { db in
                try String.fetchOne(db, sql: "SELECT password_hash FROM users WHERE id = ?", arguments: [userId])
            }
        }
        let fixtures = ScenarioCatalog(directory: TestBackend.fixtures)
        let athlete = try #require(try fixtures.load("default").user.passwordHash)
        let coach = try #require(try fixtures.load("coach").user.passwordHash)
        try await TestBackend.with { backend in
            #expect(try await stored(backend, "usr_athlete") == athlete)
            #expect(try await backend.post("/_admin/scenario", ["name": "coach"]).status == 200)
            let coachId = try fixtures.load("coach").user.id
            #expect(try await stored(backend, coachId) == coach)
            let email = try #require(try fixtures.load("coach").user.email)
            let login = try await backend.post(
                "/auth/login",
                PasswordLoginBody(email: email, password: "correct-horse-42", device: SignInCodeTests.device))
            #expect(login.status == 200)
        }
    }
}
