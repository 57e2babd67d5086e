import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// What the two-factor tests share: the `two-factor` scenario's fixed secret and recovery codes (documented in
/// fixtures/README.md), a first factor, and the authenticator's code on the backend's clock.
enum TwoFactorFixture {
    static let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    static let totp = TOTP(base32: secret)!
    static let recoveryCodes = [
        "coach-2pada", "serve-3ball", "volly-4game", "smash-5lobs", "court-6nets",
        "match-7sets", "glass-2wall", "drive-3spin", "chase-4back", "point-5deuc",
    ]
    static let email = "jdoe@mail.com"
    static let password = "correct-horse-42"
    static let phone = "+995511100000"

    /// The backend's clock now (frozen in tests: it moves only when a test moves it).
    static func now(_ backend: TestBackend) async throws -> Date {
        let clock: ClockState = try await backend.get("/_admin/clock").decode()
        return clock.now
    }

    /// What the authenticator app shows `steps` steps from the backend's now.
    static func code(
        _ backend: TestBackend, steps: Int64 = 0, totp: TOTP = totp
    ) async throws
        -> String
    {
        totp.code(atStep: TOTP.step(at: try await now(backend)) + steps)
    }

    /// A first factor: email and password, as the app's Log in sends them.
    static func logIn(
        _ backend: TestBackend, device: DeviceInfo = SignInCodeTests.device
    )
        async throws -> SignedIn
    {
        try await backend.post(
            "/auth/login", PasswordLoginBody(email: email, password: password, device: device)
        ).decode()
    }

    static func verify(_ backend: TestBackend, _ code: String, token: String) async throws -> Reply {
        try await backend.post("/auth/two-factor/verify", TwoFactorCodeBody(code: code), token: token)
    }

    static func useRecoveryCode(
        _ backend: TestBackend, _ code: String, token: String
    ) async throws
        -> Reply
    {
        try await backend.post(
            "/auth/two-factor/recovery", RecoveryCodeBody(recoveryCode: code), token: token)
    }

    /// A grant by the account's password, for the changes that need Verify it's you.
    static func grant(_ backend: TestBackend, token: String) async throws -> String {
        try await backend.passwordGrant(token: token, password: password).reauthToken
    }
}

/// The scenarios `two-factor` and `two-factor-one-code-left` store their fixed secret and codes as the backend
/// stores any: the secret sealed under the store's key, the codes as keyed digests.
@Suite struct TwoFactorScenarioTests {
    @Test func theScenarioStoresTheSecretSealedAndTheCodesAsKeyedDigests() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let rows = try await backend.running.store.pool.read { db in
                (
                    sealed: try Data.fetchOne(db, sql: "SELECT secret_sealed FROM two_factor"),
                    codes: try String.fetchAll(db, sql: "SELECT code_hash FROM recovery_codes"),
                    enabled: try Double.fetchOne(db, sql: "SELECT two_factor_enabled_at FROM users")
                )
            }
            let sealed = try #require(rows.sealed)
            #expect(rows.enabled != nil)
            // Nothing of the secret shows in what is stored, and the store's key opens it.
            #expect(sealed.firstRange(of: Data(TwoFactorFixture.totp.secret)) == nil)
            #expect(sealed.firstRange(of: Data(TwoFactorFixture.secret.utf8)) == nil)
            #expect(
                backend.running.store.twoFactorSealer.open(sealed) == Data(TwoFactorFixture.totp.secret))
            #expect(rows.codes.count == 10)
            let digest = backend.running.store.digest
            let expected = TwoFactorFixture.recoveryCodes.map {
                digest(TwoFactorLimits.normalizedRecoveryCode($0)!, context: "recovery_code:usr_athlete")
            }
            #expect(Set(rows.codes) == Set(expected))
            for code in TwoFactorFixture.recoveryCodes { #expect(!rows.codes.contains(code)) }
        }
    }

    @Test func oneCodeLeftHasOneCode() async throws {
        try await TestBackend.with(scenario: "two-factor-one-code-left") { backend in
            let token = try await backend.signIn().accessToken
            let status: TwoFactorStatus = try await backend.get("/me/two-factor", token: token).decode()
            #expect(status.enabled)
            #expect(status.recoveryCodesRemaining == 1)
        }
    }

    /// A fixture's `two_factor` is checked on load like every other field: the error names file and field.
    @Test(arguments: [
        (#"{"secret": "not base32!", "recovery_codes": []}"#, "user.two_factor.secret"),
        (#"{"secret": "GEZDGNBV", "recovery_codes": []}"#, "user.two_factor.secret"),
        (#"{"secret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "recovery_codes": ["abc"]}"#, "recovery_codes[0]"),
        (
            #"{"secret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "recovery_codes": ["coach-2pada", "COACH2PADA"]}"#,
            "recovery_codes[1]"
        ),
        (#"{"secret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "recovery_codes": [], "digits": 8}"#, "two_factor.digits"),
    ])
    func aBrokenTwoFactorFixtureNamesItsField(twoFactor: String, expected: String) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        let scenarios = root.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let json =
            #"{"description": "x", "user": {"id": "u", "phone": "+995511100000", "two_factor": "#
            + twoFactor + "}}"
        try Data(json.utf8).write(to: scenarios.appendingPathComponent("broken.json"))
        let message: String
        do {
            let running = try await ReferenceBackend.start(
                .init(scenario: "broken", fixturesDirectory: root, frozenClock: true))
            await running.shutdown()
            message = "started"
        } catch {
            message = "\(error)"
        }
        #expect(message.contains("fixtures/scenarios/broken.json"), "\(message)")
        #expect(message.contains(expected), "\(message)")
    }

    /// The QA session of an account with two-factor stands for a device that passed the step before.
    @Test func theQASessionIsAal2() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let me = try await backend.get("/auth/me", token: token)
            #expect(me.status == 200)
            #expect(try me.decode(CurrentUser.self).profile?.assuranceLevel?.known == .aal2)
            #expect(try me.decode(CurrentUser.self).authMethods.twoFactorEnabled == true)
        }
    }
}
