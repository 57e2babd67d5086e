import AccessAPI
import Foundation
import GRDB

/// Puts the database into a scenario's world: everything else is wiped first.
struct ScenarioLoader: Sendable {
    let store: Store
    let clock: BackendClock
    let catalog: ScenarioCatalog
    let linkBase: String
    /// nil: the scenario decides (running unless it says frozen).
    let frozenOverride: Bool?

    func load(_ name: String) async throws -> ScenarioLoaded {
        let scenario = try catalog.load(name)
        clock.reset(start: scenario.clock?.start, frozen: frozenOverride ?? scenario.clock?.frozen ?? false)
        let now = clock.now()
        try await store.pool.write { db in
            for table in [
                "sessions", "password_failures", "otp_requests", "sends", "test_codes", "reauth_grants", "links",
                "provider_tokens",
                "outbox", "users", "meta",
            ] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try Self.insert(db, scenario.user, isPrimary: true, now: now)
            for other in scenario.others ?? [] {
                try Self.insert(db, other, isPrimary: false, now: now)
            }
            for send in scenario.otpSends ?? [] {
                try RateLimitService.record(
                    db, channel: .sms, recipient: send.phone, isResend: send.resend ?? false,
                    now: now.addingTimeInterval(-send.secondsAgo))
            }
            for (phone, code) in scenario.testCodes ?? [:] {
                try db.execute(sql: "INSERT INTO test_codes (phone, code) VALUES (?, ?)", arguments: [phone, code])
            }
            if let pending = scenario.pendingEmailChange {
                _ = try EmailService(store: store, clock: clock, linkBase: linkBase).sendVerifyLink(
                    db, userId: scenario.user.id, purpose: .change, email: pending.email, passwordHash: nil,
                    now: now.addingTimeInterval(-pending.minutesAgo * 60))
            }
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('scenario', ?)", arguments: [name])
        }
        return ScenarioLoaded(name: name, userId: scenario.user.id, now: now)
    }

    /// The scenario a persistent database already holds, if any.
    func loadedName() async throws -> String? {
        try await store.pool.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'scenario'")
        }
    }

    private static func insert(_ db: Database, _ person: Scenario.Person, isPrimary: Bool, now: Date) throws {
        let user = UserRecord(
            id: person.id, role: (person.role ?? .athlete).rawValue, isPrimary: isPrimary, phone: person.phone,
            email: person.email, passwordHash: person.password.map(PasswordHasher.hash),
            passwordSalt: nil,
            passwordChangedAt: person.password == nil
                ? nil : now.addingTimeInterval(-(person.passwordChangedDaysAgo ?? 0) * 86_400).unix,
            appleSubject: person.appleLinked == true ? "apple_\(person.id)" : nil,
            googleSubject: person.googleLinked == true ? "google_\(person.id)" : nil)
        try user.insert(db)
    }
}
