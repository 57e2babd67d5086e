import AccessAPI
import AccessCore
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

    /// `checked`: the scenario `name` as the catalog already read it, so it is not read twice.
    func load(_ name: String, checked: Scenario? = nil) async throws -> ScenarioLoaded {
        let scenario = try checked ?? catalog.load(name)
        clock.reset(start: scenario.clock?.start, frozen: frozenOverride ?? scenario.clock?.frozen ?? false)
        let now = clock.now()
        let epoch = try await store.pool.write { db -> Int64 in
            // Read before the wipe: the epoch counts every load this database has seen.
            let epoch = (try MetaRecord.value(db, .epoch).flatMap { Int64($0) } ?? 0) + 1
            for table in [
                "sessions", "sign_ins", "spent_refresh_tokens", "password_failures", "code_challenges", "sends",
                "test_codes",
                "reauth_grants", "links",
                "provider_tokens", "provider_grants", "device_accounts", "scheduled_items", "payouts", "deletions",
                "identity_holds", "outbox", "devices", "login_failures", "recovery_requests",
                "two_factor", "two_factor_setups", "recovery_codes", "users", "meta", "events", "ended_sessions",
                "passkeys", "passkey_challenges", "device_passkeys",
            ] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            for (person, isPrimary) in [(scenario.user, true)] + (scenario.others ?? []).map({ ($0, false) }) {
                try Self.insert(db, person, isPrimary: isPrimary, now: now)
                try DevicePasskeyService.seed(db, store: store, person: person, now: now)
                if let twoFactor = person.twoFactor, let secret = TOTP(base32: twoFactor.secret) {
                    _ = try TwoFactorService.enable(
                        db, store: store, userId: person.id, secret: secret, lastStep: nil,
                        recoveryCodes: twoFactor.recoveryCodes, now: now)
                }
            }
            for send in scenario.otpSends ?? [] {
                try RateLimitService.record(
                    db, channel: .sms, recipient: send.phone, isResend: send.resend ?? false, requester: .scenario,
                    now: now.addingTimeInterval(-send.secondsAgo))
            }
            for (phone, code) in scenario.testCodes ?? [:] {
                try db.execute(sql: "INSERT INTO test_codes (phone, code) VALUES (?, ?)", arguments: [phone, code])
            }
            if let pending = scenario.pendingEmailChange {
                _ = try EmailService(store: store, clock: clock, linkBase: linkBase).sendVerifyLink(
                    db, userId: scenario.user.id, kind: .emailChange, email: pending.email, passwordHash: nil,
                    requester: .scenario,
                    now: now.addingTimeInterval(-pending.minutesAgo * 60))
            }
            try Self.insertBlockers(db, scenario, now: now)
            for account in scenario.providerAccounts ?? [] {
                let owner = scenario.others?.first { $0.id == account.linkedTo }
                let subject =
                    owner.map { Self.subject(account.provider, of: $0) }
                    ?? "\(account.provider.rawValue)_device_\(Self.slug(account.email))"
                try db.execute(
                    sql: "INSERT INTO device_accounts (provider, subject, email, name) VALUES (?, ?, ?, ?)",
                    arguments: [account.provider.rawValue, subject, account.email, account.name])
            }
            let logins = PasswordLoginService(store: store, clock: clock, linkBase: linkBase)
            for person in [scenario.user] + (scenario.others ?? []) where person.emailUnverified == true {
                if let email = person.email {
                    _ = try logins.sendLink(
                        db, userId: person.id, email: email, isResend: false, requester: .scenario, now: now)
                }
            }
            for entry in scenario.loginFailures ?? [] {
                let key = LoginThrottleService.key(entry.email, digest: store.digest)
                let at = now.addingTimeInterval(-(entry.secondsAgo ?? 0))
                for _ in 0..<entry.failures { _ = try LoginThrottleService.recordFailure(db, key: key, now: at) }
            }
            for (index, other) in (scenario.otherDevices ?? []).enumerated() {
                try Self.signIn(
                    db, digest: store.digest, userId: scenario.user.id, other, index: index,
                    assurance: scenario.user.twoFactor == nil ? .aal1 : .aal2, now: now)
            }
            try MetaRecord(key: .scenario, value: name).insert(db)
            if scenario.signedIn == false { try MetaRecord(key: .startsSignedOut, value: "1").insert(db) }
            if let access = scenario.sessionAccess {
                try MetaRecord(key: .sessionAccess, value: access.rawValue).insert(db)
            }
            try MetaRecord(key: .epoch, value: String(epoch)).insert(db)
            return epoch
        }
        return ScenarioLoaded(name: name, userId: scenario.user.id, now: now, epoch: epoch)
    }

    /// `POST /_admin/session` on a scenario that starts signed out: the way in is the sign-in screens.
    func refuseIfStartsSignedOut() async throws {
        let signedOut = try await store.pool.read { db in try MetaRecord.value(db, .startsSignedOut) != nil }
        guard signedOut else { return }
        throw BackendError(
            .conflict, "signed_out_scenario", "This scenario starts signed out. Sign in through the app.",
            rule: .adminSignedOutScenario)
    }

    /// The access of the QA session the scenario hands out (`session_access`).
    func sessionAccess() async throws -> AccessLevel {
        let stored = try await store.pool.read { db in try MetaRecord.value(db, .sessionAccess) }
        return stored.flatMap(AccessLevel.init(rawValue:)) ?? .full
    }

    /// The scenario loaded last and its epoch (0 before any load): what `GET /_admin/state` reports.
    func loadedEpoch() async throws -> (name: String, epoch: Int64) {
        try await store.pool.read { db in
            (
                try MetaRecord.value(db, .scenario) ?? "", try MetaRecord.value(db, .epoch).flatMap { Int64($0) } ?? 0
            )
        }
    }

    /// The scenario a persistent database already holds, if any.
    func loadedName() async throws -> String? {
        try await store.pool.read { db in try MetaRecord.value(db, .scenario) }
    }

    /// One of `other_devices`: registered and signed in as a sign-in from it would be, then last seen as long ago
    /// as the scenario says.
    private static func signIn(
        _ db: Database, digest: TokenDigest, userId: String, _ other: Scenario.OtherDevice, index: Int,
        assurance: AssuranceLevel, now: Date
    ) throws {
        let device = DeviceInfo(
            deviceName: other.deviceName, systemName: other.systemName, systemVersion: other.systemVersion,
            identifier: "scenario-device-\(index)",
            publicKey: Data(repeating: UInt8(index), count: 32).base64EncodedString())
        let deviceId = try DeviceService.register(db, userId: userId, device: device, now: now).id
        let tokens = try SessionService.issue(
            db, digest: digest, userId: userId, deviceId: deviceId, assurance: assurance, method: other.method, now: now
        )
        let seen = now.addingTimeInterval(-other.lastSeenMinutesAgo * 60).unix
        try db.execute(
            sql: """
                UPDATE sign_ins SET created_at = ?, last_seen_at = ?, client_address = NULL
                WHERE family_id = (SELECT family_id FROM sessions WHERE access_hash = ?)
                """,
            arguments: [seen, seen, digest(tokens.accessToken)])
    }

    private static func insert(_ db: Database, _ person: Scenario.Person, isPrimary: Bool, now: Date) throws {
        let user = UserRecord(
            id: person.id, role: person.role ?? .athlete, isPrimary: isPrimary, phone: person.phone,
            email: person.email, passwordHash: person.passwordHash,
            passwordSalt: nil,
            passwordChangedAt: person.password == nil
                ? nil : now.addingTimeInterval(-(person.passwordChangedDaysAgo ?? 0) * 86_400).unix,
            appleSubject: person.appleLinked == true ? subject(.apple, of: person) : nil,
            googleSubject: person.googleLinked == true ? subject(.google, of: person) : nil)
        try user.insert(db)
        if person.emailUnverified == true {
            try db.execute(sql: "UPDATE users SET email_unverified = 1 WHERE id = ?", arguments: [user.id])
        }
        try db.execute(
            sql: "UPDATE users SET username = ?, photo = ?, onboarding_step = ? WHERE id = ?",
            arguments: [
                person.username, person.photo, (person.onboardingStep ?? .complete).rawValue, user.id,
            ])
        for provider in SocialProvider.allCases {
            if let subject = user.subject(of: provider) {
                try ProviderLinkService.grant(db, userId: user.id, provider: provider, subject: subject, now: now)
            }
        }
    }

    /// A scenario person's account at the simulated provider.
    static func subject(_ provider: SocialProvider, of person: Scenario.Person) -> String {
        "\(provider.rawValue)_\(person.id)"
    }

    private static func slug(_ email: String) -> String {
        String(email.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    private static func insertBlockers(_ db: Database, _ scenario: Scenario, now: Date) throws {
        let userId = scenario.user.id
        for (kind, items) in [("session", scenario.sessions ?? []), ("booking", scenario.bookings ?? [])] {
            for item in items {
                try db.execute(
                    sql: "INSERT INTO scheduled_items (user_id, kind, title, starts_at) VALUES (?, ?, ?, ?)",
                    arguments: [userId, kind, item.title, now.addingTimeInterval(item.startsInHours * 3600).unix])
            }
        }
        guard let payout = scenario.payout, let weekday = Scenario.weekdays.firstIndex(of: payout.automaticPayoutOn)
        else { return }
        try db.execute(
            sql: """
                INSERT INTO payouts (user_id, currency, available_minor, on_hold_minor, hold_releases_at,
                    next_automatic_payout_at) VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                userId, payout.currency, payout.availableMinor, payout.onHoldMinor,
                payout.holdReleasesInHours.map { now.addingTimeInterval($0 * 3600).unix },
                nextAutomaticPayout(weekday: weekday + 1, after: now).unix,
            ])
    }

    static let automaticPayoutHourUTC = 9

    /// The first `weekday` (1 = Sunday, as `Calendar` counts) at 09:00 UTC strictly after `now`.
    static func nextAutomaticPayout(weekday: Int, after now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let match = DateComponents(hour: automaticPayoutHourUTC, minute: 0, second: 0, weekday: weekday)
        return calendar.nextDate(after: now, matching: match, matchingPolicy: .nextTime) ?? now
    }
}
