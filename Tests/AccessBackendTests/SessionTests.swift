import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Access tokens 1 h, refresh tokens 7 days and rotated; tokens are long random strings. A refresh
/// token presented again after its rotation ends every session of its sign-in (reuse detection), unless
/// within the 10 s reuse interval while the pair it was rotated into is live: that pair comes back.
@Suite struct SessionTests {
    func refresh(_ backend: TestBackend, _ refreshToken: String) async throws -> Reply {
        try await backend.post("/auth/refresh", RefreshBody(refreshToken: refreshToken))
    }

    func rotate(_ backend: TestBackend, _ refreshToken: String) async throws -> SessionTokens {
        try await refresh(backend, refreshToken).decode()
    }

    /// The rule the journal names for the last request to `path`.
    func lastRule(_ backend: TestBackend, _ path: String) async throws -> String? {
        try await backend.get("/_admin/journal").decode([JournalEntry].self).last { $0.path == path }?.rule
    }

    @Test func adminSessionIssuesLongLivedRandomTokens() async throws {
        try await TestBackend.with { backend in
            let now = try await backend.get("/_admin/clock").decode(ClockState.self).now
            let first = try await backend.signIn()
            let second = try await backend.signIn()
            #expect(first.userId == "usr_athlete")
            #expect(first.accessToken != second.accessToken)
            #expect(first.refreshToken != second.refreshToken)
            // 32 random bytes base64url: 43 characters after the prefix, far above 128 bits.
            #expect(first.accessToken.count >= 3 + 43)
            #expect(first.accessExpiresAt.timeIntervalSince(now) == 3600)
            #expect(first.refreshExpiresAt.timeIntervalSince(now) == 7 * 86400)
        }
    }

    @Test func missingOrUnknownBearerIs401() async throws {
        try await TestBackend.with { backend in
            #expect(try await backend.get("/me/auth-methods").status == 401)
            let reply = try await backend.get("/me/auth-methods", token: "at_forged")
            #expect(reply.status == 401)
            #expect(reply.error?.code == "unauthorized")
        }
    }

    @Test func accessTokenDiesAfterOneHour() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await backend.advance(seconds: 3599)
            #expect(try await backend.get("/me/auth-methods", token: token).status == 200)
            _ = try await backend.advance(seconds: 1)
            #expect(try await backend.get("/me/auth-methods", token: token).status == 401)
        }
    }

    @Test func refreshRotatesAndTheOldTokenDies() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            let renewed: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken)
            ).decode()
            #expect(renewed.refreshToken != tokens.refreshToken)
            #expect(try await backend.get("/me/auth-methods", token: renewed.accessToken).status == 200)
            #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 401)
            // Past the reuse interval (theSameTokenAgainWithinTenSecondsGetsTheSamePair is the inside).
            _ = try await backend.advance(seconds: 10)
            let replay = try await backend.post("/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken))
            #expect(replay.status == 401)
            #expect(replay.error?.code == "refresh_invalid")
        }
    }

    @Test func refreshTokenDiesAfterSevenDays() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            _ = try await backend.advance(seconds: 7 * 86400)
            #expect(
                try await backend.post("/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken)).status == 401)
        }
    }

    @Test func rotationKeepsWorkingDownTheChain() async throws {
        try await TestBackend.with { backend in
            var tokens = try await backend.signIn()
            for _ in 0..<3 {
                let next = try await rotate(backend, tokens.refreshToken)
                #expect(try await backend.get("/me/auth-methods", token: next.accessToken).status == 200)
                #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 401)
                tokens = next
            }
        }
    }

    @Test func aReusedRefreshTokenEndsItsWholeFamilyAndNoOther() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            let otherDevice = try await backend.signIn()
            let second = try await rotate(backend, first.refreshToken)
            let current = try await rotate(backend, second.refreshToken)

            let replay = try await refresh(backend, first.refreshToken)
            #expect(replay.status == 401)
            #expect(replay.error?.code == "refresh_invalid")
            #expect(try await lastRule(backend, "/auth/refresh") == "session.refresh_reused")
            // The family's live session went with it: its access token and its refresh token.
            #expect(try await backend.get("/me/auth-methods", token: current.accessToken).status == 401)
            let afterReuse = try await refresh(backend, current.refreshToken)
            #expect(afterReuse.status == 401)
            #expect(afterReuse.error?.code == "refresh_invalid")
            // Another sign-in of the same user is another family: untouched.
            #expect(try await backend.get("/me/auth-methods", token: otherDevice.accessToken).status == 200)
            #expect(try await refresh(backend, otherDevice.refreshToken).status == 200)
        }
    }

    @Test func reusingAMiddleTokenOfTheChainEndsTheFamilyToo() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            let second = try await rotate(backend, first.refreshToken)
            let current = try await rotate(backend, second.refreshToken)
            _ = try await backend.advance(seconds: 10)
            #expect(try await refresh(backend, second.refreshToken).status == 401)
            #expect(try await lastRule(backend, "/auth/refresh") == "session.refresh_reused")
            #expect(try await backend.get("/me/auth-methods", token: current.accessToken).status == 401)
        }
    }

    @Test func anUnknownRefreshTokenIsRefusedWithoutEndingAnything() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            let forged = try await refresh(backend, "rt_forged")
            #expect(forged.status == 401)
            #expect(forged.error?.code == "refresh_invalid")
            #expect(try await lastRule(backend, "/auth/refresh") == "session.refresh_invalid")
            #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 200)
        }
    }

    @Test func aRefreshTokenStillWorksOneSecondBeforeSevenDays() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            _ = try await backend.advance(seconds: 7 * 86400 - 1)
            let renewed = try await rotate(backend, tokens.refreshToken)
            #expect(try await backend.get("/me/auth-methods", token: renewed.accessToken).status == 200)
        }
    }

    /// A spent token is recognised as long as it would have lived (7 days from its issue), not after.
    @Test func aSpentTokenCountsAsReusedUntilItsSevenDaysAreOver() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            _ = try await backend.advance(seconds: 86400)
            let current = try await rotate(backend, first.refreshToken)
            _ = try await backend.advance(seconds: 6 * 86400 - 1)
            #expect(try await refresh(backend, first.refreshToken).status == 401)
            #expect(try await lastRule(backend, "/auth/refresh") == "session.refresh_reused")
            #expect(try await refresh(backend, current.refreshToken).status == 401)
        }
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            let second = try await rotate(backend, first.refreshToken)
            _ = try await backend.advance(seconds: 86400)
            let current = try await rotate(backend, second.refreshToken)
            _ = try await backend.advance(seconds: 6 * 86400)
            // `first` died at its seventh day: an expired token, refused like any unknown one.
            #expect(try await refresh(backend, first.refreshToken).status == 401)
            #expect(try await lastRule(backend, "/auth/refresh") == "session.refresh_invalid")
            #expect(try await refresh(backend, current.refreshToken).status == 200)
        }
    }

    /// Issue 25, defect 12: the rotation committed but its reply was lost, and the client sends the same
    /// token again. Within ten seconds it gets the very pair the lost reply carried; after that, or once
    /// that pair has itself been used, the token counts as reused and ends its family.
    @Test func theSameTokenAgainWithinTenSecondsGetsTheSamePair() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            let renewed = try await rotate(backend, first.refreshToken)
            _ = try await backend.advance(seconds: 9)
            let again = try await refresh(backend, first.refreshToken)
            #expect(again.status == 200)
            #expect(try await lastRule(backend, "/auth/refresh") == "session.refresh_retried")
            let pair: SessionTokens = try again.decode()
            #expect(pair.accessToken == renewed.accessToken)
            #expect(pair.refreshToken == renewed.refreshToken)
            #expect(pair.accessExpiresAt == renewed.accessExpiresAt)
            #expect(pair.refreshExpiresAt == renewed.refreshExpiresAt)
            #expect(try await backend.get("/me/auth-methods", token: pair.accessToken).status == 200)
            // The pair goes on rotating as usual.
            let next = try await rotate(backend, pair.refreshToken)
            #expect(try await backend.get("/me/auth-methods", token: next.accessToken).status == 200)
        }
    }

    @Test func theSameTokenAgainAfterTenSecondsEndsTheFamily() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            let renewed = try await rotate(backend, first.refreshToken)
            _ = try await backend.advance(seconds: 10)
            let again = try await refresh(backend, first.refreshToken)
            #expect(again.status == 401)
            #expect(again.error?.code == "refresh_invalid")
            #expect(try await lastRule(backend, "/auth/refresh") == "session.refresh_reused")
            #expect(try await backend.get("/me/auth-methods", token: renewed.accessToken).status == 401)
        }
    }

    @Test func withinTenSecondsATokenWhosePairWasUsedIsReused() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            let renewed = try await rotate(backend, first.refreshToken)
            let next = try await rotate(backend, renewed.refreshToken)
            let again = try await refresh(backend, first.refreshToken)
            #expect(again.status == 401)
            #expect(try await lastRule(backend, "/auth/refresh") == "session.refresh_reused")
            #expect(try await backend.get("/me/auth-methods", token: next.accessToken).status == 401)
        }
    }
}
