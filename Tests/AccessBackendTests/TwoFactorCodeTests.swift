import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// The authenticator's code at the second step (issue 31): one step of drift either side, never twice, and five
/// wrong codes per account lock the step for 15 minutes, on a moved clock.
@Suite struct TwoFactorCodeTests {
    private func verify(_ backend: TestBackend, steps: Int64, token: String) async throws -> Reply {
        try await TwoFactorFixture.verify(
            backend, try await TwoFactorFixture.code(backend, steps: steps), token: token)
    }

    @Test(arguments: [Int64(-1), 0, 1])
    func aCodeOfNowOrOneStepEitherSidePasses(steps: Int64) async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(try await verify(backend, steps: steps, token: token).status == 200)
        }
    }

    @Test(arguments: [Int64(-2), 2])
    func aCodeTwoStepsAwayIsRefused(steps: Int64) async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            let refused = try await verify(backend, steps: steps, token: token)
            #expect(refused.status == 401)
            #expect(refused.error?.code == "code_incorrect")
            #expect(refused.error?.attemptsRemaining == 4)
        }
    }

    /// The clock moves the codes: the code of now stops working two steps later, and the new one works.
    @Test func theBackendsClockMovesTheCodes() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            let old = try await TwoFactorFixture.code(backend)
            _ = try await backend.advance(seconds: 60)
            #expect(try await TwoFactorFixture.verify(backend, old, token: token).status == 401)
            #expect(try await verify(backend, steps: 0, token: token).status == 200)
        }
    }

    @Test func aCodeAcceptedOnceIsRefusedWhenReplayed() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let code = try await TwoFactorFixture.code(backend)
            let first = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(try await TwoFactorFixture.verify(backend, code, token: first).status == 200)
            let second = try await TwoFactorFixture.logIn(backend).session.accessToken
            let replayed = try await TwoFactorFixture.verify(backend, code, token: second)
            #expect(replayed.status == 401)
            #expect(replayed.error?.code == "code_incorrect")
            let journal: [JournalEntry] = try await backend.get("/_admin/journal").decode()
            #expect(
                journal.last { $0.path == "/auth/two-factor/verify" }?.rule == "two_factor.code_replayed")
            // An older code than the one accepted is spent too; the next step's is not.
            #expect(try await verify(backend, steps: -1, token: second).status == 401)
            #expect(try await verify(backend, steps: 1, token: second).status == 200)
        }
    }

    /// Both sides of 5, counted per account across two sessions: the 4th wrong code leaves one try, and the right
    /// code still passes then; the 5th locks the step, for every session of the account.
    @Test func fiveWrongCodesAcrossTwoSessionsLockTheStep() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let first = try await TwoFactorFixture.logIn(backend).session.accessToken
            let second = try await TwoFactorFixture.logIn(backend).session.accessToken
            let wrong = try await TwoFactorFixture.code(backend, steps: 5)
            for (token, remaining) in [(first, 4), (second, 3), (first, 2), (second, 1)] {
                let reply = try await TwoFactorFixture.verify(backend, wrong, token: token)
                #expect(reply.status == 401)
                #expect(reply.error?.attemptsRemaining == remaining)
                #expect(reply.error?.retryAfter == nil)
            }
            let fifth = try await TwoFactorFixture.verify(backend, wrong, token: first)
            #expect(fifth.status == 401)
            #expect(fifth.error?.code == "code_incorrect")
            #expect(fifth.error?.attemptsRemaining == 0)
            #expect(fifth.error?.retryAfter == 15 * 60)
            let locked = try await verify(backend, steps: 0, token: second)
            #expect(locked.status == 429)
            #expect(locked.error?.code == "rate_limited")
            #expect(locked.error?.limit == "two_factor_attempts")
            #expect(locked.error?.retryAfter == 15 * 60)
            #expect(locked.headers.first(name: "Retry-After") == "900")
            // Signing in again does not start the count over.
            let third = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(try await verify(backend, steps: 0, token: third).status == 429)
        }
    }

    @Test func fourWrongCodesThenTheRightOnePassesAndClearsTheCount() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            let wrong = try await TwoFactorFixture.code(backend, steps: 5)
            for _ in 0..<4 {
                #expect(try await TwoFactorFixture.verify(backend, wrong, token: token).status == 401)
            }
            #expect(try await verify(backend, steps: 0, token: token).status == 200)
            let again = try await TwoFactorFixture.logIn(backend).session.accessToken
            let reply = try await TwoFactorFixture.verify(backend, wrong, token: again)
            #expect(reply.error?.attemptsRemaining == 4)
        }
    }

    /// The lock lasts 15 minutes on the backend's clock: a second before, still 429; at 15 minutes, the code of
    /// then passes.
    @Test func theLockLiftsAfterFifteenMinutes() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            let wrong = try await TwoFactorFixture.code(backend, steps: 5)
            for _ in 0..<5 { _ = try await TwoFactorFixture.verify(backend, wrong, token: token) }
            _ = try await backend.advance(seconds: 15 * 60 - 1)
            let still = try await verify(backend, steps: 0, token: token)
            #expect(still.status == 429)
            #expect(still.error?.retryAfter == 1)
            _ = try await backend.advance(seconds: 1)
            #expect(try await verify(backend, steps: 0, token: token).status == 200)
        }
    }

    @Test func aWrongCodeAfterTheLockStartsTheCountOver() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            for _ in 0..<5 {
                _ = try await TwoFactorFixture.verify(
                    backend, try await TwoFactorFixture.code(backend, steps: 5), token: token)
            }
            _ = try await backend.advance(seconds: 15 * 60)
            let reply = try await TwoFactorFixture.verify(
                backend, try await TwoFactorFixture.code(backend, steps: 5), token: token)
            #expect(reply.status == 401)
            #expect(reply.error?.attemptsRemaining == 4)
        }
    }
}
