import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// Turning two-factor on (issue 31): Verify it's you, a pending secret, its first code, and the recovery codes
/// shown once.
@Suite struct TwoFactorSetupTests {
    private func setup(_ backend: TestBackend, token: String) async throws -> TwoFactorSetup {
        let grant = try await TwoFactorFixture.grant(backend, token: token)
        let reply = try await backend.send(.POST, "/me/two-factor/setup", token: token, reauth: grant)
        #expect(reply.status == 201)
        return try reply.decode()
    }

    private func confirm(_ backend: TestBackend, _ code: String, token: String) async throws -> Reply {
        try await backend.post("/me/two-factor/confirm", TwoFactorCodeBody(code: code), token: token)
    }

    @Test func setupThenConfirmTurnsItOnAndShowsTenCodesOnce() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let before: TwoFactorStatus = try await backend.get("/me/two-factor", token: token).decode()
            #expect(!before.enabled)
            #expect(before.recoveryCodesRemaining == 0)

            let pending = try await setup(backend, token: token)
            let totp = try #require(TOTP(base32: pending.secret))
            #expect(totp.secret.count == TOTP.secretByteCount)
            #expect(pending.otpauthUri == totp.uri(issuer: "321Fit", account: TwoFactorFixture.email))
            #expect(
                pending.expiresAt == (try await TwoFactorFixture.now(backend)).addingTimeInterval(10 * 60))
            // Nothing changed yet.
            #expect(
                try await backend.get("/me/two-factor", token: token).decode(TwoFactorStatus.self).enabled
                    == false)

            let confirmed = try await confirm(
                backend, try await TwoFactorFixture.code(backend, totp: totp), token: token)
            #expect(confirmed.status == 200)
            let codes = try confirmed.decode(RecoveryCodes.self).recoveryCodes
            #expect(codes.count == 10)
            #expect(Set(codes).count == 10)
            for code in codes {
                #expect(code.wholeMatch(of: #/[a-z2-7]{5}-[a-z2-7]{5}/#) != nil, "\(code)")
            }

            let after = try await backend.get("/me/two-factor", token: token)
            let status: TwoFactorStatus = try after.decode()
            #expect(status.enabled)
            #expect(status.enabledAt != nil)
            #expect(status.recoveryCodesRemaining == 10)
            // Shown once: no later answer holds a code or the secret.
            let text = String(decoding: after.data, as: UTF8.self)
            for code in codes { #expect(!text.contains(code)) }
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.twoFactorEnabled == true)
            let notices = try await backend.outbox().filter { $0.kind == "two_factor_enabled_notice" }
            #expect(notices.map(\.to) == [TwoFactorFixture.email])
        }
    }

    @Test func theConfirmingSessionIsAal2AndTheAccountsOtherSessionsMustPassTheStep() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let other = try await backend.signIn().accessToken
            let pending = try await setup(backend, token: token)
            let code = try await TwoFactorFixture.code(backend, totp: TOTP(base32: pending.secret)!)
            #expect(try await confirm(backend, code, token: token).status == 200)

            let me = try await backend.get("/auth/me", token: token)
            #expect(me.status == 200)
            #expect(try me.decode(CurrentUser.self).profile?.assuranceLevel?.known == .aal2)
            let refused = try await backend.get("/auth/me", token: other)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "second_factor_required")
        }
    }

    @Test func setupNeedsVerifyItsYou() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let refused = try await backend.send(.POST, "/me/two-factor/setup", token: token)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "reauth_required")
        }
    }

    /// Both sides of 5: the 4th wrong first code leaves the setup alive with 1 try; the 5th ends it.
    @Test func fiveWrongFirstCodesEndThePendingSetup() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let pending = try await setup(backend, token: token)
            let right = try await TwoFactorFixture.code(backend, totp: TOTP(base32: pending.secret)!)
            let wrong = right == "000000" ? "111111" : "000000"
            for expected in [4, 3, 2, 1] {
                let reply = try await confirm(backend, wrong, token: token)
                #expect(reply.status == 401)
                #expect(reply.error?.code == "code_incorrect")
                #expect(reply.error?.attemptsRemaining == expected)
            }
            let fifth = try await confirm(backend, wrong, token: token)
            #expect(fifth.status == 401)
            #expect(fifth.error?.attemptsRemaining == 0)
            let after = try await confirm(backend, right, token: token)
            #expect(after.status == 404)
            #expect(after.error?.code == "two_factor_setup_not_found")
        }
    }

    @Test func fourWrongFirstCodesThenTheRightOneTurnsItOn() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let pending = try await setup(backend, token: token)
            let right = try await TwoFactorFixture.code(backend, totp: TOTP(base32: pending.secret)!)
            let wrong = right == "000000" ? "111111" : "000000"
            for _ in 0..<4 { #expect(try await confirm(backend, wrong, token: token).status == 401) }
            #expect(try await confirm(backend, right, token: token).status == 200)
        }
    }

    /// A pending setup lives 10 minutes: a second before, its code confirms; at 10 minutes, it is gone.
    @Test func aPendingSetupEndsAfterTenMinutes() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let totp = TOTP(base32: try await setup(backend, token: token).secret)!
            _ = try await backend.advance(seconds: 10 * 60)
            let late = try await confirm(
                backend, try await TwoFactorFixture.code(backend, totp: totp), token: token)
            #expect(late.status == 404)
            #expect(late.error?.code == "two_factor_setup_not_found")
        }
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let totp = TOTP(base32: try await setup(backend, token: token).secret)!
            _ = try await backend.advance(seconds: 10 * 60 - 1)
            let inTime = try await confirm(
                backend, try await TwoFactorFixture.code(backend, totp: totp), token: token)
            #expect(inTime.status == 200)
        }
    }

    @Test func aNewSetupReplacesThePendingOne() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let first = TOTP(base32: try await setup(backend, token: token).secret)!
            let second = TOTP(base32: try await setup(backend, token: token).secret)!
            #expect(first != second)
            let firstCode = try await TwoFactorFixture.code(backend, totp: first)
            if firstCode != (try await TwoFactorFixture.code(backend, totp: second)) {
                #expect(try await confirm(backend, firstCode, token: token).status == 401)
            }
            #expect(
                try await confirm(
                    backend, try await TwoFactorFixture.code(backend, totp: second), token: token
                ).status == 200)
        }
    }

    @Test func setupWhileOnIs409() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await TwoFactorFixture.grant(backend, token: token)
            let refused = try await backend.send(
                .POST, "/me/two-factor/setup", token: token, reauth: grant)
            #expect(refused.status == 409)
            #expect(refused.error?.code == "two_factor_enabled")
        }
    }

    @Test func confirmWithoutASetupIs404() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let refused = try await confirm(backend, "123456", token: token)
            #expect(refused.status == 404)
            #expect(refused.error?.code == "two_factor_setup_not_found")
        }
    }
}
