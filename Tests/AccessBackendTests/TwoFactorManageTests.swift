import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// Turning two-factor off, Verify it's you with the authenticator, and QA's current code (issue 31).
@Suite struct TwoFactorManageTests {
    @Test func turningItOffNeedsVerifyItsYou() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let refused = try await backend.send(.DELETE, "/me/two-factor", token: token)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "reauth_required")
            #expect(
                try await backend.get("/me/two-factor", token: token).decode(TwoFactorStatus.self).enabled)
        }
    }

    @Test func turningItOffDeletesTheSecretAndCodesAndTellsTheEmail() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await TwoFactorFixture.grant(backend, token: token)
            #expect(
                try await backend.send(.DELETE, "/me/two-factor", token: token, reauth: grant).status == 204
            )
            let status: TwoFactorStatus = try await backend.get("/me/two-factor", token: token).decode()
            #expect(!status.enabled)
            #expect(status.recoveryCodesRemaining == 0)
            let left = try await backend.running.store.pool.read { db in
                try Int.fetchOne(
                    db,
                    sql: "SELECT (SELECT COUNT(*) FROM two_factor) + (SELECT COUNT(*) FROM recovery_codes)")
            }
            #expect(left == 0)
            let notices = try await backend.outbox().filter { $0.kind == "two_factor_disabled_notice" }
            #expect(notices.map(\.to) == [TwoFactorFixture.email])
            let again = try await backend.send(.DELETE, "/me/two-factor", token: token, reauth: grant)
            #expect(again.status == 409)
            #expect(again.error?.code == "two_factor_not_enabled")
        }
    }

    @Test func theAuthenticatorVerifiesItsYou() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.post(
                "/auth/reauth/authenticator",
                TwoFactorCodeBody(code: try await TwoFactorFixture.code(backend)),
                token: token)
            #expect(reply.status == 200)
            let grant: ReauthGrant = try reply.decode()
            #expect(grant.method.known == .authenticator)
            // Any change takes it, turning two-factor off included.
            #expect(
                try await backend.send(.DELETE, "/me/two-factor", token: token, reauth: grant.reauthToken)
                    .status == 204)
        }
    }

    @Test func reauthWithTheAuthenticatorFollowsTheCodeRules() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let code = try await TwoFactorFixture.code(backend)
            let body = TwoFactorCodeBody(code: code)
            #expect(
                try await backend.post("/auth/reauth/authenticator", body, token: token).status == 200)
            let replayed = try await backend.post("/auth/reauth/authenticator", body, token: token)
            #expect(replayed.status == 401)
            #expect(replayed.error?.attemptsRemaining == 4)
        }
    }

    @Test func reauthWithTheAuthenticatorNeedsTwoFactor() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let refused = try await backend.post(
                "/auth/reauth/authenticator", TwoFactorCodeBody(code: "123456"), token: token)
            #expect(refused.status == 422)
            #expect(refused.error?.code == "method_unavailable")
        }
    }

    /// With two-factor on, the authenticator is one more way to verify: an account whose only sign-in method is
    /// its phone verifies a phone change with it instead of with its session.
    @Test func theAuthenticatorCountsAsAFactorOfTheSharedRule() {
        let phoneOnly = SignInMethods(phone: true, email: false, apple: false, google: false)
        #expect(ReauthRule(methods: phoneOnly, hasPassword: false).sessionSuffices(for: .phone))
        let withAuthenticator = ReauthRule(
            methods: phoneOnly, hasPassword: false, hasAuthenticator: true)
        #expect(!withAuthenticator.sessionSuffices(for: .phone))
        #expect(withAuthenticator.factors(for: .phone) == [.authenticator])
        #expect(ReauthRule.grant(.authenticator, verifies: .phone))
    }

    @Test func theAdminRouteGivesTheCodeOfTheBackendsClock() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            _ = try await backend.advance(seconds: 12_345)
            let now = try await TwoFactorFixture.now(backend)
            let current: TwoFactorCode = try await backend.get("/_admin/two-factor/code").decode()
            #expect(current.code == TwoFactorFixture.totp.code(at: now))
            #expect(current.step == TOTP.step(at: now))
            #expect(current.secondsLeft == TOTP.secondsLeft(at: now))
            let named: TwoFactorCode = try await backend.get(
                "/_admin/two-factor/code?user_id=usr_athlete"
            ).decode()
            #expect(named.code == current.code)
            // And the code it gives passes the step.
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(try await TwoFactorFixture.verify(backend, current.code, token: token).status == 200)
        }
    }

    @Test func theAdminRouteIs404WithoutTwoFactor() async throws {
        try await TestBackend.with { backend in
            let reply = try await backend.get("/_admin/two-factor/code")
            #expect(reply.status == 404)
            #expect(reply.error?.code == "two_factor_not_enabled")
            #expect(try await backend.get("/_admin/two-factor/code?user_id=usr_nobody").status == 404)
        }
    }
}
