import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// Scenario files are checked on load; the error names the file, the field and the problem.
@Suite struct ScenarioValidationTests {
    private func withFixture(_ json: String, name: String = "broken", _ body: (URL) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        let scenarios = root.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(json.utf8).write(to: scenarios.appendingPathComponent("\(name).json"))
        try await body(root)
    }

    private func startError(_ fixtures: URL, scenario: String = "broken") async -> String {
        do {
            let running = try await ReferenceBackend.start(
                .init(scenario: scenario, fixturesDirectory: fixtures, frozenClock: true))
            await running.shutdown()
            return "started"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        (#"{"description": "x", "user": {"id": "u", "phone": "+99551"}}"#, "user.phone"),
        (
            #"{"description": "x", "user": {"id": "u", "phone": "+995511100000", "colour": 1}}"#,
            "user.colour: unknown field"
        ),
        (#"{"description": "x", "user": {"id": "u", "role": "admin", "phone": "+995511100000"}}"#, "user.role"),
        (#"{"user": {"id": "u", "phone": "+995511100000"}}"#, "description: missing field"),
        (#"{"description": "x", "user": {"id": "u"}}"#, "user: has no sign-in method"),
        (#"{"description": "x", "user": {"id": "u", "password": "pw"}}"#, "user.password"),
        (
            #"{"description": "x", "user": {"id": "u", "apple_linked": true}, "test_codes": {"+995511100000": "12"}}"#,
            "test_codes.+995511100000"
        ),
        (#"{"description": "x", "user": {"id": "u", "apple_linked": true}, "others": [{"id": "u"}]}"#, "others[0].id"),
        (
            #"{"description": "x", "user": {"id": "u", "apple_linked": true}, "otp_sends": [{"phone": "+995511100000"}]}"#,
            "otp_sends[0].seconds_ago: missing field"
        ),
        (
            #"{"description": "x", "user": {"id": "u", "apple_linked": true}, "signed_in": false, "session_access": "limited"}"#,
            "session_access: limited needs a signed-in scenario"
        ),
        (
            #"{"description": "x", "user": {"id": "u", "apple_linked": true}, "session_access": "partial"}"#,
            "session_access"
        ),
        (#"not json"#, "not a JSON object"),
    ])
    func brokenFixtureNamesFileAndField(json: String, expected: String) async throws {
        try await withFixture(json) { fixtures in
            let message = await startError(fixtures)
            #expect(message.contains("fixtures/scenarios/broken.json"), "\(message)")
            #expect(message.contains(expected), "\(message)")
        }
    }

    private static func coach(_ extra: String) -> String {
        #"{"description": "x", "user": {"id": "u", "role": "coach", "phone": "+995511100000"}, "#
            + extra + "}"
    }

    /// The delete flow's blockers and the simulated provider's accounts (issue 13).
    @Test(arguments: [
        (
            #"{"description": "x", "user": {"id": "u", "phone": "+995511100000"}, "sessions": [{"title": "a", "starts_in_hours": 1}]}"#,
            "sessions: only a coach"
        ),
        (coach(#""sessions": [{"title": " ", "starts_in_hours": 1}]"#), "sessions[0].title: must be 1 to 200"),
        (coach(#""sessions": [{"title": "a", "starts_in_hours": 9000}]"#), "sessions[0].starts_in_hours"),
        (coach(#""sessions": [{"title": "a", "starts_at": 1}]"#), "sessions[0].starts_at: unknown field"),
        (coach(#""bookings": [{"title": "a"}]"#), "bookings[0].starts_in_hours: missing field"),
        (coach(#""bookings": [{"title": "a", "starts_in_hours": "soon"}]"#), "bookings[0].starts_in_hours: expected"),
        (
            #"{"description": "x", "user": {"id": "u", "phone": "+995511100000"}, "payout": {"currency": "EUR", "available_minor": 1, "on_hold_minor": 0, "automatic_payout_on": "monday"}}"#,
            "payout: only a coach"
        ),
        (
            coach(
                #""payout": {"currency": "euro", "available_minor": 1, "on_hold_minor": 0, "automatic_payout_on": "monday"}"#
            ),
            "payout.currency"
        ),
        (
            coach(
                #""payout": {"currency": "EUR", "available_minor": -1, "on_hold_minor": 0, "automatic_payout_on": "monday"}"#
            ),
            "payout.available_minor: must be >= 0"
        ),
        (
            coach(
                #""payout": {"currency": "EUR", "available_minor": 1, "on_hold_minor": 5, "automatic_payout_on": "monday"}"#
            ),
            "payout.hold_releases_in_hours: required"
        ),
        (
            coach(
                #""payout": {"currency": "EUR", "available_minor": 1, "on_hold_minor": 0, "hold_releases_in_hours": 3, "automatic_payout_on": "monday"}"#
            ),
            "payout.hold_releases_in_hours: only with on_hold_minor"
        ),
        (
            coach(
                #""payout": {"currency": "EUR", "available_minor": 1, "on_hold_minor": 0, "automatic_payout_on": "someday"}"#
            ),
            "payout.automatic_payout_on"
        ),
        (
            coach(#""payout": {"currency": "EUR", "available_minor": 1, "on_hold_minor": 0}"#),
            "payout.automatic_payout_on: missing field"
        ),
        (
            coach(#""provider_accounts": [{"provider": "yahoo", "email": "a@b.co", "name": "A"}]"#),
            "provider_accounts[0].provider"
        ),
        (
            coach(#""provider_accounts": [{"provider": "google", "email": "nope", "name": "A"}]"#),
            "provider_accounts[0].email"
        ),
        (
            coach(
                #""provider_accounts": [{"provider": "google", "email": "a@b.co", "name": "A", "linked_to": "ghost"}]"#),
            "provider_accounts[0].linked_to: \"ghost\" is not the id"
        ),
        (
            coach(
                #""others": [{"id": "o", "email": "o@b.co"}], "provider_accounts": [{"provider": "google", "email": "a@b.co", "name": "A", "linked_to": "o"}]"#
            ),
            "provider_accounts[0].linked_to: \"o\" needs google_linked"
        ),
    ])
    func brokenBlockersNameTheField(json: String, expected: String) async throws {
        try await withFixture(json) { fixtures in
            let message = await startError(fixtures)
            #expect(message.contains("fixtures/scenarios/broken.json"), "\(message)")
            #expect(message.contains(expected), "\(message)")
        }
    }

    private static func phoneUser(_ fields: String, others: String = "") -> String {
        #"{"description": "x", "user": {"id": "u", "phone": "+995511100000", "#
            + fields + "}" + (others.isEmpty ? "" : #", "others": ["# + others + "]") + "}"
    }

    private static func withDevice(_ device: String) -> String {
        #"{"description": "x", "user": {"id": "u", "phone": "+995511100000"}, "other_devices": ["# + device + "]}"
    }

    /// Active sessions' other devices (issue 30).
    @Test(arguments: [
        (
            withDevice(
                #"{"device_name": " ", "system_name": "iOS", "system_version": "1", "method": "apple", "last_seen_minutes_ago": 1}"#
            ),
            "other_devices[0].device_name: expected 1 to 100 characters"
        ),
        (
            withDevice(
                #"{"device_name": "A", "system_name": "iOS", "system_version": "1", "method": "fax", "last_seen_minutes_ago": 1}"#
            ),
            "other_devices[0].method"
        ),
        (
            withDevice(
                #"{"device_name": "A", "system_name": "iOS", "system_version": "1", "method": "apple", "last_seen_minutes_ago": -1}"#
            ),
            "other_devices[0].last_seen_minutes_ago: must be >= 0"
        ),
        (
            withDevice(
                #"{"device_name": "A", "system_name": "iOS", "system_version": "1", "method": "apple", "last_seen_minutes_ago": 1, "ip": 1}"#
            ),
            "other_devices[0].ip: unknown field"
        ),
    ])
    func brokenOtherDevicesNameTheField(json: String, expected: String) async throws {
        try await withFixture(json) { fixtures in
            let message = await startError(fixtures)
            #expect(message.contains(expected), "\(message)")
        }
    }

    /// Onboarding's person fields (issue 15).
    @Test(arguments: [
        (phoneUser(#""username": "JDoe""#), #"user.username: "JDoe" breaks the username rules (lowercase)"#),
        (
            phoneUser(#""username": "1x""#),
            #"user.username: "1x" breaks the username rules (too_short, first_character)"#
        ),
        (
            phoneUser(#""username": "jdoe""#, others: #"{"id": "o", "email": "o@b.co", "username": "jdoe"}"#),
            "others[0].username: used by two people"
        ),
        (phoneUser(#""photo": """#), "user.photo: must be 1 to 1024"),
        (phoneUser(#""onboarding_step": "later""#), "user.onboarding_step"),
        (phoneUser(#""onboarding_step": "finish""#), #"user.onboarding_step: "finish" comes after the profile step"#),
        (
            phoneUser(#""username": "casey", "email": "c@b.co", "onboarding_step": "recovery_email""#),
            #"user.onboarding_step: "recovery_email" is for an account without an email"#
        ),
        (
            phoneUser(#""username": "casey", "onboarding_step": "verify_email""#),
            #"user.onboarding_step: "verify_email" needs email_unverified"#
        ),
    ])
    func brokenOnboardingFieldsNameTheField(json: String, expected: String) async throws {
        try await withFixture(json) { fixtures in
            let message = await startError(fixtures)
            #expect(message.contains("fixtures/scenarios/broken.json"), "\(message)")
            #expect(message.contains(expected), "\(message)")
        }
    }

    @Test func onboardingFieldsThatFitLoad() async throws {
        let json = Self.phoneUser(
            #""username": "casey", "photo": "~/me.png", "onboarding_step": "recovery_email""#,
            others: #"{"id": "o", "email": "o@b.co", "username": "other", "onboarding_step": "profile"}"#)
        try await withFixture(json) { fixtures in
            #expect(await startError(fixtures) == "started")
        }
    }

    /// A real hash of "correct-horse-42" at the backend's cost, as fixtures/scenarios/default.json holds it.
    static let goodHash = "bcrypt-sha256$$2b$10$a227BJyZFSlIj1BVMhNYNurNMXCDHdVWz/bIQ9SzjG269JpdFnypW"

    private static func passwordUser(_ fields: String) -> String {
        #"{"description": "x", "user": {"id": "u", "email": "u@mail.com", "password": "correct-horse-42", "#
            + fields + "}}"
    }

    /// The loader stores `password_hash` as it is (no bcrypt run on load), so a hash the backend would not
    /// have made, or a weaker one, is refused by name.
    @Test(arguments: [
        (
            #"{"description": "x", "user": {"id": "u", "email": "u@mail.com", "password": "correct-horse-42"}}"#,
            "user.password_hash: required with a password"
        ),
        (
            #"{"description": "x", "user": {"id": "u", "email": "u@mail.com", "password_hash": "\#(goodHash)"}}"#,
            "user.password_hash: needs the password"
        ),
        (passwordUser(#""password_hash": "correct-horse-42""#), "user.password_hash: not a password hash"),
        (
            passwordUser(#""password_hash": "\#(String(goodHash.dropFirst("bcrypt-sha256$".count)))""#),
            "user.password_hash: not a password hash"
        ),
        (passwordUser(#""password_hash": "\#(goodHash.dropLast())""#), "user.password_hash: not a password hash"),
        (
            passwordUser(#""password_hash": "\#(goodHash.replacingOccurrences(of: "$10$", with: "$04$"))""#),
            "user.password_hash: bcrypt cost 4 is below the backend's 10"
        ),
    ])
    func passwordHashIsCheckedOnLoad(json: String, expected: String) async throws {
        try await withFixture(json) { fixtures in
            let message = await startError(fixtures)
            #expect(message.contains("fixtures/scenarios/broken.json"), "\(message)")
            #expect(message.contains(expected), "\(message)")
        }
    }

    @Test func aPasswordWithItsHashLoads() async throws {
        try await withFixture(Self.passwordUser(#""password_hash": "\#(Self.goodHash)""#)) { fixtures in
            #expect(await startError(fixtures) == "started")
        }
    }

    /// The cost read from the text of a hash, both sides of every check.
    @Test func costOfAStoredHash() {
        #expect(PasswordHasher.cost(ofStored: Self.goodHash) == 10)
        #expect(PasswordHasher.cost(ofStored: Self.goodHash.replacingOccurrences(of: "$10$", with: "$12$")) == 12)
        #expect(PasswordHasher.cost(ofStored: Self.goodHash.replacingOccurrences(of: "$10$", with: "$03$")) == nil)
        #expect(PasswordHasher.cost(ofStored: Self.goodHash.replacingOccurrences(of: "$2b$", with: "$2x$")) == nil)
        #expect(PasswordHasher.cost(ofStored: Self.goodHash + "e") == nil)
        #expect(PasswordHasher.cost(ofStored: String(Self.goodHash.dropLast()) + "!") == nil)
        #expect(PasswordHasher.cost(ofStored: String(Self.goodHash.dropFirst())) == nil)
        #expect(PasswordHasher.cost(ofStored: PasswordHasher.hash("correct-horse-42")) == Int(PasswordHasher.cost))
    }

    @Test func unknownScenarioListsTheAvailableOnes() async throws {
        let message = await startError(TestBackend.fixtures, scenario: "nope")
        #expect(message.contains("unknown scenario \"nope\""))
        #expect(message.contains("default") && message.contains("coach"))
    }

    @Test func everyShippedScenarioLoads() async throws {
        let names = Fixtures.scenarioNames(in: TestBackend.fixtures)
        #expect(names.count >= 9)
        try await TestBackend.with { backend in
            for name in names {
                let reply = try await backend.post("/_admin/scenario", ["name": name])
                #expect(reply.status == 200, "\(name): \(String(decoding: reply.data, as: UTF8.self))")
            }
        }
    }
}
