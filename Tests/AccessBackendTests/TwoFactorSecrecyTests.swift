import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Nothing of two-factor's secrets reaches the journal (issue 31): the secret, its otpauth URI, the codes and
/// the recovery codes are redacted by name (`Redaction`), in requests and answers alike.
@Suite struct TwoFactorSecrecyTests {
    @Test func theJournalHoldsNoSecretCodeOrRecoveryCode() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await TwoFactorFixture.grant(backend, token: token)
            let setup: TwoFactorSetup = try await backend.send(
                .POST, "/me/two-factor/setup", token: token, reauth: grant
            ).decode()
            let totp = TOTP(base32: setup.secret)!
            let code = try await TwoFactorFixture.code(backend, totp: totp)
            let codes: RecoveryCodes = try await backend.post(
                "/me/two-factor/confirm", TwoFactorCodeBody(code: code), token: token
            ).decode()
            let aal1 = try await TwoFactorFixture.logIn(backend).session.accessToken
            let recovery = codes.recoveryCodes[0]
            #expect(
                try await TwoFactorFixture.useRecoveryCode(backend, recovery, token: aal1).status == 200)
            let next = try await TwoFactorFixture.code(backend, steps: 1, totp: totp)
            _ = try await backend.post(
                "/auth/reauth/authenticator", TwoFactorCodeBody(code: next), token: token)
            _ = try await backend.get("/_admin/two-factor/code")

            let journal = String(decoding: try await backend.get("/_admin/journal").data, as: UTF8.self)
            #expect(journal.contains("/me/two-factor/setup"))
            #expect(journal.contains("[redacted]"))
            for secret in [setup.secret, setup.otpauthUri, code, next, recovery] + codes.recoveryCodes {
                #expect(!journal.contains(secret), "the journal shows \(secret)")
            }
            // The otpauth URI escaped as JSON writes it.
            #expect(!journal.contains("otpauth:"))

            // Nor the event log (issue 49), which records the same steps.
            let events = try await backend.running.store.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM events").map { "\($0)" }
            }
            #expect(events.contains { $0.contains("two_factor_on") })
            #expect(events.contains { $0.contains("recovery_code_used") })
            for secret in [setup.secret, code, next, recovery] + codes.recoveryCodes {
                #expect(!events.contains { $0.contains(secret) }, "an event holds \(secret)")
            }
        }
    }

    @Test func redactionHidesTheTwoFactorNames() {
        let body =
            #"{"secret":"GEZDGNBV","otpauth_uri":"otpauth://totp/x","recovery_code":"coach-2pada","recovery_codes":["a"],"code":"123456","enabled":true}"#
        let redacted = Redaction.json(body)
        for hidden in ["GEZDGNBV", "otpauth://", "coach-2pada", #"["a"]"#, "123456"] {
            #expect(!redacted.contains(hidden), "\(hidden) in \(redacted)")
        }
        #expect(redacted.contains(#""enabled":true"#))
    }
}
