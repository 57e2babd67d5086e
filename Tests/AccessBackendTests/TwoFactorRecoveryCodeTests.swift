import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// Recovery codes at the second step (issue 31): each works once, also under two requests at once; the email is
/// told how many remain; new codes kill the old ones.
@Suite struct TwoFactorRecoveryCodeTests {
    @Test func aRecoveryCodePassesTheStepOnce() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let first = try await TwoFactorFixture.logIn(backend).session.accessToken
            let passed = try await TwoFactorFixture.useRecoveryCode(backend, "serve-3ball", token: first)
            #expect(passed.status == 200)
            let signedIn: SignedIn = try passed.decode()
            #expect(signedIn.assuranceLevel.known == .aal2)
            #expect(try await backend.get("/auth/me", token: signedIn.session.accessToken).status == 200)

            let second = try await TwoFactorFixture.logIn(backend).session.accessToken
            let again = try await TwoFactorFixture.useRecoveryCode(backend, "serve-3ball", token: second)
            #expect(again.status == 401)
            #expect(again.error?.code == "code_incorrect")
            #expect(again.error?.attemptsRemaining == 4)
            let status: TwoFactorStatus = try await backend.get(
                "/me/two-factor", token: signedIn.session.accessToken
            ).decode()
            #expect(status.recoveryCodesRemaining == 9)
        }
    }

    @Test func caseAndTheDashDoNotMatter() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(
                try await TwoFactorFixture.useRecoveryCode(backend, " MATCH7SETS ", token: token).status
                    == 200)
        }
    }

    /// Two requests with one code at once, from two sessions: exactly one gets in.
    @Test func twoRequestsWithTheSameCodeAtOnceExactlyOneWins() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            for round in 0..<5 {
                let code = TwoFactorFixture.recoveryCodes[round]
                let first = try await TwoFactorFixture.logIn(backend).session.accessToken
                let second = try await TwoFactorFixture.logIn(backend).session.accessToken
                async let a = TwoFactorFixture.useRecoveryCode(backend, code, token: first)
                async let b = TwoFactorFixture.useRecoveryCode(backend, code, token: second)
                let statuses = try await [a.status, b.status].sorted()
                #expect(statuses == [200, 401], "round \(round): \(statuses)")
            }
            let token = try await backend.signIn().accessToken
            let status: TwoFactorStatus = try await backend.get("/me/two-factor", token: token).decode()
            #expect(status.recoveryCodesRemaining == 5)
        }
    }

    @Test func theEmailIsToldHowManyRemain() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(
                try await TwoFactorFixture.useRecoveryCode(backend, "glass-2wall", token: token).status
                    == 200)
            let notices = try await backend.outbox().filter { $0.kind == "recovery_code_used_notice" }
            #expect(notices.map(\.to) == [TwoFactorFixture.email])
            #expect(notices.map(\.purpose) == ["remaining:9"])
        }
    }

    @Test func theLastCodeSaysNoneRemain() async throws {
        try await TestBackend.with(scenario: "two-factor-one-code-left") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(
                try await TwoFactorFixture.useRecoveryCode(backend, "point-5deuc", token: token).status
                    == 200)
            let notice = try await backend.outbox().last { $0.kind == "recovery_code_used_notice" }
            #expect(notice?.purpose == "remaining:0")
            // The fixture's other codes were never this account's.
            let again = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(
                try await TwoFactorFixture.useRecoveryCode(backend, "coach-2pada", token: again).status
                    == 401)
        }
    }

    @Test func newCodesKillTheOldOnes() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await TwoFactorFixture.grant(backend, token: token)
            let reply = try await backend.send(
                .POST, "/me/two-factor/recovery-codes", token: token, reauth: grant)
            #expect(reply.status == 200)
            let fresh = try reply.decode(RecoveryCodes.self).recoveryCodes
            #expect(fresh.count == 10)
            #expect(Set(fresh).isDisjoint(with: TwoFactorFixture.recoveryCodes))

            let old = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(
                try await TwoFactorFixture.useRecoveryCode(backend, "coach-2pada", token: old).status == 401
            )
            #expect(
                try await TwoFactorFixture.useRecoveryCode(backend, fresh[3], token: old).status == 200)
        }
    }

    @Test func regeneratingNeedsVerifyItsYou() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await backend.signIn().accessToken
            let refused = try await backend.send(.POST, "/me/two-factor/recovery-codes", token: token)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "reauth_required")
        }
    }

    /// Wrong recovery codes count with wrong authenticator codes: four and one lock the step.
    @Test func wrongRecoveryCodesCountTowardsTheLock() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            for remaining in [4, 3, 2, 1] {
                let reply = try await TwoFactorFixture.useRecoveryCode(backend, "aaaaa-bbbbb", token: token)
                #expect(reply.error?.attemptsRemaining == remaining)
            }
            let fifth = try await TwoFactorFixture.verify(
                backend, try await TwoFactorFixture.code(backend, steps: 5), token: token)
            #expect(fifth.error?.attemptsRemaining == 0)
            let locked = try await TwoFactorFixture.useRecoveryCode(backend, "coach-2pada", token: token)
            #expect(locked.status == 429)
            #expect(locked.error?.limit == "two_factor_attempts")
        }
    }
}
