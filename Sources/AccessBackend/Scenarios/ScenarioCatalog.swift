import AccessAPI
import AccessCore
import Foundation

/// Finds, reads and validates scenario files. Every problem names the file, the field and what is wrong.
struct ScenarioCatalog: Sendable {
    let directory: URL

    var scenariosDirectory: URL { directory.appendingPathComponent("scenarios") }

    func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scenariosDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    func summaries() throws -> [ScenarioSummary] {
        try names().map { ScenarioSummary(name: $0, description: try load($0).description) }
    }

    func load(_ name: String) throws -> Scenario {
        let file = scenariosDirectory.appendingPathComponent("\(name).json")
        guard names().contains(name) else {
            let available = names().joined(separator: ", ")
            throw ScenarioError(
                description: "unknown scenario \"\(name)\"; available: \(available.isEmpty ? "none" : available)")
        }
        let label = "fixtures/scenarios/\(name).json"
        let data = try Data(contentsOf: file)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ScenarioError(description: "\(label): not a JSON object")
        }
        try Self.rejectUnknownKeys(object, known: Scenario.knownKeys, at: "", label: label)
        var people: [(String, [String: Any])] = []
        if let user = object["user"] as? [String: Any] { people.append(("user.", user)) }
        for (index, other) in ((object["others"] as? [[String: Any]]) ?? []).enumerated() {
            people.append(("others[\(index)].", other))
        }
        for (prefix, person) in people {
            try Self.rejectUnknownKeys(person, known: Scenario.personKeys, at: prefix, label: label)
            if let twoFactor = person["two_factor"] as? [String: Any] {
                try Self.rejectUnknownKeys(
                    twoFactor, known: Scenario.twoFactorKeys, at: prefix + "two_factor.", label: label)
            }
            for (index, passkey) in ((person["passkeys"] as? [[String: Any]]) ?? []).enumerated() {
                try Self.rejectUnknownKeys(
                    passkey, known: Scenario.passkeyKeys, at: prefix + "passkeys[\(index)].", label: label)
            }
        }
        for list in ["sessions", "bookings"] {
            for (index, item) in ((object[list] as? [[String: Any]]) ?? []).enumerated() {
                try Self.rejectUnknownKeys(
                    item, known: Scenario.scheduledItemKeys, at: "\(list)[\(index)].", label: label)
            }
        }
        if let payout = object["payout"] as? [String: Any] {
            try Self.rejectUnknownKeys(payout, known: Scenario.payoutKeys, at: "payout.", label: label)
        }
        for (index, account) in ((object["provider_accounts"] as? [[String: Any]]) ?? []).enumerated() {
            try Self.rejectUnknownKeys(
                account, known: Scenario.providerAccountKeys, at: "provider_accounts[\(index)].", label: label)
        }
        for (index, device) in ((object["other_devices"] as? [[String: Any]]) ?? []).enumerated() {
            try Self.rejectUnknownKeys(
                device, known: Scenario.otherDeviceKeys, at: "other_devices[\(index)].", label: label)
        }
        for (index, entry) in ((object["login_failures"] as? [[String: Any]]) ?? []).enumerated() {
            try Self.rejectUnknownKeys(
                entry, known: Scenario.loginFailureKeys, at: "login_failures[\(index)].", label: label)
        }
        let scenario: Scenario
        do {
            scenario = try APIJSON.makeDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            throw ScenarioError(description: "\(label): \(JSONBody.describe(error))")
        }
        try validate(scenario, label: label)
        return scenario
    }

    private static func rejectUnknownKeys(
        _ object: [String: Any], known: Set<String>, at prefix: String, label: String
    )
        throws
    {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            let allowed = known.sorted().joined(separator: ", ")
            throw ScenarioError(description: "\(label): \(prefix)\(unknown): unknown field (allowed: \(allowed))")
        }
    }

    private func validate(_ scenario: Scenario, label: String) throws {
        func fail(_ field: String, _ problem: String) -> ScenarioError {
            ScenarioError(description: "\(label): \(field): \(problem)")
        }
        var ids: Set<String> = []
        var phones: Set<String> = []
        var emails: Set<String> = []
        let people = [("user", scenario.user)] + (scenario.others ?? []).enumerated().map { ("others[\($0)]", $1) }
        for (field, person) in people {
            guard !person.id.isEmpty, ids.insert(person.id).inserted else {
                throw fail("\(field).id", "must be non-empty and unique")
            }
            if let phone = person.phone {
                guard PhoneNumberRules.normalizeE164(phone) == phone else {
                    throw fail(
                        "\(field).phone", "\"\(phone)\" is not E.164 with the country's length (e.g. +995511100000)")
                }
                guard phones.insert(phone).inserted else { throw fail("\(field).phone", "used by two people") }
            }
            if let email = person.email {
                guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else {
                    throw fail("\(field).email", "\"\(email)\" is not an email address")
                }
                guard emails.insert(email.lowercased()).inserted else {
                    throw fail("\(field).email", "used by two people")
                }
            }
            if person.password != nil, person.email == nil {
                throw fail("\(field).password", "a password needs an email (seed 000: no password without email)")
            }
            if let days = person.passwordChangedDaysAgo, days < 0 || person.password == nil {
                throw fail("\(field).password_changed_days_ago", "needs a password and a value >= 0")
            }
            try Self.validatePasswordHash(person, field: field, fail: fail)
            try Self.validateTwoFactor(person, field: field, fail: fail)
            try Self.validatePasskeys(person, field: field, fail: fail)
        }
        if scenario.user.signInMethods.count == 0 {
            throw fail("user", "has no sign-in method (phone, email, apple_linked, google_linked or a passkey)")
        }
        for (index, send) in (scenario.otpSends ?? []).enumerated() {
            guard PhoneNumberRules.normalizeE164(send.phone) == send.phone else {
                throw fail("otp_sends[\(index)].phone", "\"\(send.phone)\" is not E.164")
            }
            guard send.secondsAgo >= 0 else { throw fail("otp_sends[\(index)].seconds_ago", "must be >= 0") }
        }
        for (phone, code) in scenario.testCodes ?? [:] {
            guard PhoneNumberRules.normalizeE164(phone) == phone || EmailRules.isValid(phone) else {
                throw fail("test_codes", "key \"\(phone)\" is neither E.164 nor an email address")
            }
            guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw fail("test_codes.\(phone)", "must be 6 digits")
            }
        }
        for (index, entry) in (scenario.loginFailures ?? []).enumerated() {
            guard EmailRules.isValid(entry.email) else {
                throw fail("login_failures[\(index)].email", "\"\(entry.email)\" is not an email address")
            }
            guard (1...20).contains(entry.failures) else {
                throw fail("login_failures[\(index)].failures", "must be 1 to 20")
            }
            guard (entry.secondsAgo ?? 0) >= 0 else {
                throw fail("login_failures[\(index)].seconds_ago", "must be >= 0")
            }
        }
        for (index, device) in (scenario.otherDevices ?? []).enumerated() {
            let field = "other_devices[\(index)]"
            for (name, value, limit) in [
                ("device_name", device.deviceName, DeviceService.maxNameLength),
                ("system_name", device.systemName, DeviceService.maxSystemLength),
                ("system_version", device.systemVersion, DeviceService.maxSystemLength),
            ] where value.trimmingCharacters(in: .whitespaces).isEmpty || value.count > limit {
                throw fail("\(field).\(name)", "expected 1 to \(limit) characters")
            }
            guard device.lastSeenMinutesAgo >= 0 else {
                throw fail("\(field).last_seen_minutes_ago", "must be >= 0")
            }
        }
        if scenario.otherDevices?.isEmpty == false, scenario.signedIn == false {
            throw fail("other_devices", "needs a signed-in scenario")
        }
        if scenario.sessionAccess == .limited, scenario.signedIn == false {
            throw fail("session_access", "limited needs a signed-in scenario (signed_out has no session to limit)")
        }
        for person in [scenario.user] + (scenario.others ?? []) where person.emailUnverified == true {
            guard person.email != nil, person.password != nil else {
                throw fail("\(person.id).email_unverified", "needs an email and a password")
            }
        }
        try validateOnboarding(people, fail: fail)
        try validateBlockers(scenario, fail: fail)
        try validateProviderAccounts(scenario, fail: fail)
    }

    /// A secret an authenticator app takes, and recovery codes as the backend makes them, each once.
    private static func validatePasskeys(
        _ person: Scenario.Person, field: String, fail: (String, String) -> ScenarioError
    ) throws {
        for (index, passkey) in (person.passkeys ?? []).enumerated() {
            let at = "\(field).passkeys[\(index)]"
            guard !passkey.name.isEmpty, passkey.name.unicodeScalars.count <= PasskeyRules.maxNameLength else {
                throw fail("\(at).name", "expected 1 to \(PasskeyRules.maxNameLength) characters")
            }
            if let count = passkey.signCount, !(0...Int(UInt32.max)).contains(count) {
                throw fail("\(at).sign_count", "must be 0 to \(UInt32.max)")
            }
            if let days = passkey.lastUsedDaysAgo, days < 0 { throw fail("\(at).last_used_days_ago", "must be >= 0") }
            if passkey.removedOnServer == true, passkey.onThisDevice != true {
                throw fail("\(at).removed_on_server", "only a passkey on this device can be gone from the server alone")
            }
        }
    }

    private static func validateTwoFactor(
        _ person: Scenario.Person, field: String, fail: (String, String) -> ScenarioError
    ) throws {
        guard let twoFactor = person.twoFactor else { return }
        guard let totp = TOTP(base32: twoFactor.secret), totp.secret.count >= 16 else {
            throw fail("\(field).two_factor.secret", "expected Base32 (A-Z, 2-7) of at least 16 bytes (26 characters)")
        }
        guard twoFactor.recoveryCodes.count <= TwoFactorLimits.recoveryCodeCount else {
            throw fail("\(field).two_factor.recovery_codes", "at most \(TwoFactorLimits.recoveryCodeCount) codes")
        }
        var seen: Set<String> = []
        for (index, code) in twoFactor.recoveryCodes.enumerated() {
            guard let normalized = TwoFactorLimits.normalizedRecoveryCode(code), seen.insert(normalized).inserted
            else {
                throw fail(
                    "\(field).two_factor.recovery_codes[\(index)]",
                    "\"\(code)\" is not xxxxx-xxxxx of a-z and 2-7, once")
            }
        }
    }

    /// The loader stores `password_hash` as it is, without hashing (that is what keeps loads fast), so it must
    /// be one the backend could have made, and never weaker. Whether it verifies `password` costs a bcrypt
    /// run, so FixturesTests checks that once for every fixture instead of every load.
    private static func validatePasswordHash(
        _ person: Scenario.Person, field: String, fail: (String, String) -> ScenarioError
    ) throws {
        let hashField = "\(field).password_hash"
        switch (person.password, person.passwordHash) {
        case (nil, nil):
            return
        case (_?, nil):
            throw fail(hashField, "required with a password: its bcrypt-sha256 hash (fixtures/README.md: making one)")
        case (nil, _?):
            throw fail(hashField, "needs the password it is the hash of")
        case (_?, let hash?):
            guard let cost = PasswordHasher.cost(ofStored: hash) else {
                throw fail(hashField, "not a password hash as the backend stores one (\"bcrypt-sha256$$2b$10$…\")")
            }
            guard cost >= PasswordHasher.cost else {
                throw fail(
                    hashField,
                    "bcrypt cost \(cost) is below the backend's \(PasswordHasher.cost): never weaker than a hash it makes"
                )
            }
        }
    }

    /// Names follow the app's rules and are written as stored; a step needs what the account would have
    /// had on reaching it.
    private func validateOnboarding(
        _ people: [(String, Scenario.Person)], fail: (String, String) -> ScenarioError
    ) throws {
        var usernames: Set<String> = []
        for (field, person) in people {
            if let username = person.username {
                let problems = UsernameRules.problems(username)
                guard problems.isEmpty, UsernameRules.normalized(username) == username else {
                    let broken = problems.isEmpty ? "lowercase" : problems.map(\.rawValue).joined(separator: ", ")
                    throw fail("\(field).username", "\"\(username)\" breaks the username rules (\(broken))")
                }
                guard usernames.insert(username).inserted else { throw fail("\(field).username", "used by two people") }
            }
            if let photo = person.photo, photo.isEmpty || photo.count > OnboardingService.maxPhotoLength {
                throw fail("\(field).photo", "must be 1 to \(OnboardingService.maxPhotoLength) characters")
            }
            guard let step = person.onboardingStep else { continue }
            let stepField = "\(field).onboarding_step"
            if step != .profile, step != .complete, person.username == nil {
                throw fail(stepField, "\"\(step.rawValue)\" comes after the profile step: needs a username")
            }
            if step == .recoveryEmail, person.email != nil {
                throw fail(stepField, "\"recovery_email\" is for an account without an email")
            }
            if step == .verifyEmail, person.emailUnverified != true {
                throw fail(stepField, "\"verify_email\" needs email_unverified: true")
            }
        }
    }

    /// A scheduled item starts at most a year either side of the scenario's start.
    static let maxHoursAway: Double = 366 * 24
    static let maxTitleLength = 200

    private func validateBlockers(_ scenario: Scenario, fail: (String, String) -> ScenarioError) throws {
        let isCoach = scenario.user.role == .coach
        if scenario.sessions != nil, !isCoach {
            throw fail("sessions", "only a coach has sessions with athletes (set user.role to \"coach\")")
        }
        for (list, items) in [("sessions", scenario.sessions ?? []), ("bookings", scenario.bookings ?? [])] {
            for (index, item) in items.enumerated() {
                let trimmed = item.title.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, item.title.count <= Self.maxTitleLength else {
                    throw fail("\(list)[\(index)].title", "must be 1 to \(Self.maxTitleLength) characters")
                }
                guard item.startsInHours.isFinite, abs(item.startsInHours) <= Self.maxHoursAway else {
                    throw fail("\(list)[\(index)].starts_in_hours", "must be within a year of the start (±8784)")
                }
            }
        }
        guard let payout = scenario.payout else { return }
        guard isCoach else { throw fail("payout", "only a coach is paid out (set user.role to \"coach\")") }
        guard payout.currency.count == 3, payout.currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw fail("payout.currency", "\"\(payout.currency)\" is not an ISO 4217 code such as \"EUR\"")
        }
        guard payout.availableMinor >= 0 else { throw fail("payout.available_minor", "must be >= 0") }
        guard payout.onHoldMinor >= 0 else { throw fail("payout.on_hold_minor", "must be >= 0") }
        switch (payout.onHoldMinor > 0, payout.holdReleasesInHours) {
        case (true, nil):
            throw fail("payout.hold_releases_in_hours", "required while on_hold_minor is above 0")
        case (true, let hours?) where !(hours > 0 && hours <= Self.maxHoursAway):
            throw fail("payout.hold_releases_in_hours", "must be above 0 and within a year")
        case (false, _?):
            throw fail("payout.hold_releases_in_hours", "only with on_hold_minor above 0")
        default: break
        }
        guard Scenario.weekdays.contains(payout.automaticPayoutOn) else {
            throw fail(
                "payout.automatic_payout_on",
                "\"\(payout.automaticPayoutOn)\" is not a weekday (\(Scenario.weekdays.joined(separator: ", ")))")
        }
    }

    private func validateProviderAccounts(_ scenario: Scenario, fail: (String, String) -> ScenarioError) throws {
        for (index, account) in (scenario.providerAccounts ?? []).enumerated() {
            let field = "provider_accounts[\(index)]"
            guard EmailRules.isValid(account.email) else {
                throw fail("\(field).email", "\"\(account.email)\" is not an email address")
            }
            guard !account.name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw fail("\(field).name", "must not be empty")
            }
            guard let owner = account.linkedTo else { continue }
            guard let person = (scenario.others ?? []).first(where: { $0.id == owner }) else {
                throw fail("\(field).linked_to", "\"\(owner)\" is not the id of one of `others`")
            }
            let linked = account.provider == .apple ? person.appleLinked : person.googleLinked
            guard linked == true else {
                throw fail(
                    "\(field).linked_to",
                    "\"\(owner)\" needs \(account.provider == .apple ? "apple_linked" : "google_linked"): true")
            }
        }
    }
}

extension Scenario.Person {
    var signInMethods: SignInMethods {
        SignInMethods(
            phone: phone != nil, email: email != nil, apple: appleLinked == true, google: googleLinked == true,
            passkey: (passkeys ?? []).contains { $0.removedOnServer != true })
    }
}
