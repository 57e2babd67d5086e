import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// Signing in to an account with two-factor on (issue 31): every first factor gives an aal1 session that must
/// pass the second step; the step gives aal2 and new tokens.
@Suite struct TwoFactorSignInTests {
    @Test func aPasswordSignInIsAal1WithTheSecondFactorRequired() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let signedIn = try await TwoFactorFixture.logIn(backend)
            #expect(signedIn.assuranceLevel.known == .aal1)
            #expect(signedIn.secondFactorRequired)
            #expect(signedIn.profile?.assuranceLevel?.known == .aal1)
            #expect(signedIn.authMethods.twoFactorEnabled == true)
        }
    }

    @Test func aPhoneCodeSignInIsAal1WithTheSecondFactorRequired() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let challenge: SignInChallenge = try await SignInCodeTests.start(
                backend, phone: TwoFactorFixture.phone
            )
            .decode()
            let signedIn: SignedIn = try await backend.post(
                "/auth/sign-in/code/verify",
                VerifySignInCodeBody(
                    challengeId: challenge.challengeId, code: "246810", device: SignInCodeTests.device)
            ).decode()
            #expect(signedIn.assuranceLevel.known == .aal1)
            #expect(signedIn.secondFactorRequired)
        }
    }

    @Test func anAccountWithoutTwoFactorIsAal1WithNothingRequired() async throws {
        try await TestBackend.with { backend in
            let signedIn = try await TwoFactorFixture.logIn(backend)
            #expect(signedIn.assuranceLevel.known == .aal1)
            #expect(!signedIn.secondFactorRequired)
            #expect(signedIn.authMethods.twoFactorEnabled == false)
            #expect(try await backend.get("/auth/me", token: signedIn.session.accessToken).status == 200)
        }
    }

    @Test func theCurrentCodeGivesAal2AndNewTokensAndTheOldOnesDie() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let first = try await TwoFactorFixture.logIn(backend)
            let reply = try await TwoFactorFixture.verify(
                backend, try await TwoFactorFixture.code(backend), token: first.session.accessToken)
            #expect(reply.status == 200)
            let second: SignedIn = try reply.decode()
            #expect(second.assuranceLevel.known == .aal2)
            #expect(!second.secondFactorRequired)
            #expect(second.deviceId == first.deviceId)
            #expect(second.session.accessToken != first.session.accessToken)
            #expect(second.session.refreshToken != first.session.refreshToken)

            let me: CurrentUser = try await backend.get("/auth/me", token: second.session.accessToken)
                .decode()
            #expect(me.profile?.assuranceLevel?.known == .aal2)
            #expect(try await backend.get("/auth/me", token: first.session.accessToken).status == 401)
            let oldRefresh = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: first.session.refreshToken))
            #expect(oldRefresh.status == 401)
            // One sign-in, one session in the list.
            let sessions: ActiveSessions = try await backend.get(
                "/me/sessions", token: second.session.accessToken
            )
            .decode()
            #expect(sessions.sessions.filter { $0.isCurrent }.count == 1)
        }
    }

    @Test func aRefreshedAal1SessionStaysAal1() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let signedIn = try await TwoFactorFixture.logIn(backend)
            let refreshed: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: signedIn.session.refreshToken)
            ).decode()
            let refused = try await backend.get("/auth/me", token: refreshed.accessToken)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "second_factor_required")
            // It may still pass the step.
            let passed = try await TwoFactorFixture.verify(
                backend, try await TwoFactorFixture.code(backend), token: refreshed.accessToken)
            #expect(passed.status == 200)
        }
    }

    @Test func anAal2SessionRefreshedStaysAal2() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let first = try await TwoFactorFixture.logIn(backend)
            let second: SignedIn = try await TwoFactorFixture.verify(
                backend, try await TwoFactorFixture.code(backend), token: first.session.accessToken
            ).decode()
            let refreshed: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: second.session.refreshToken)
            ).decode()
            #expect(try await backend.get("/auth/me", token: refreshed.accessToken).status == 200)
        }
    }

    @Test func anAal1SessionMayLogOut() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let signedIn = try await TwoFactorFixture.logIn(backend)
            let token = signedIn.session.accessToken
            #expect(try await backend.send(.POST, "/auth/logout", token: token).status == 204)
            #expect(try await backend.get("/auth/me", token: token).status == 401)
            #expect(
                try await TwoFactorFixture.verify(
                    backend, try await TwoFactorFixture.code(backend), token: token
                ).status == 401)
        }
    }

    @Test func theStepForAnAccountWithoutTwoFactorIs409() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let refused = try await TwoFactorFixture.verify(backend, "123456", token: token)
            #expect(refused.status == 409)
            #expect(refused.error?.code == "two_factor_not_enabled")
            let recovery = try await TwoFactorFixture.useRecoveryCode(
                backend, "coach-2pada", token: token)
            #expect(recovery.status == 409)
        }
    }

    @Test func turningItOffEndsTheSecondStepForNewSignIns() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await TwoFactorFixture.grant(backend, token: token)
            #expect(
                try await backend.send(.DELETE, "/me/two-factor", token: token, reauth: grant).status == 204
            )
            let signedIn = try await TwoFactorFixture.logIn(backend)
            #expect(!signedIn.secondFactorRequired)
            #expect(try await backend.get("/auth/me", token: signedIn.session.accessToken).status == 200)
        }
    }
}

/// Recovery by email (seed 003) with two-factor on: email control alone is no way past the authenticator. The
/// recovered session is aal1 and limited; after the second step it is aal2 and still limited until a phone is
/// re-verified.
@Suite struct TwoFactorRecoveryByEmailTests {
    @Test func theSecondFactorIsStillAskedAndAccessStaysLimited() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            _ = try await RecoveryTests.start(backend, TwoFactorFixture.email)
            let link = try await RecoveryTests.lastLinkToken(backend)
            let recovered: SignedIn = try await RecoveryTests.complete(backend, link).decode()
            #expect(recovered.secondFactorRequired)
            #expect(recovered.assuranceLevel.known == .aal1)
            #expect(recovered.profile?.access?.known == .limited)
            let token = recovered.session.accessToken
            // Not even what a limited session may do, before the second step.
            let refused = try await backend.get("/me/profile", token: token)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "second_factor_required")

            let passed: SignedIn = try await TwoFactorFixture.verify(
                backend, try await TwoFactorFixture.code(backend), token: token
            ).decode()
            #expect(passed.assuranceLevel.known == .aal2)
            #expect(passed.profile?.access?.known == .limited)
            let aal2 = passed.session.accessToken
            let profile: Profile = try await backend.get("/me/profile", token: aal2).decode()
            #expect(profile.access?.known == .limited)
            #expect(profile.assuranceLevel?.known == .aal2)
            let change = try await backend.post(
                "/auth/reauth/password", PasswordReauthBody(password: TwoFactorFixture.password),
                token: aal2)
            #expect(change.status == 403)
            #expect(change.error?.code == "limited_access")
        }
    }
}
