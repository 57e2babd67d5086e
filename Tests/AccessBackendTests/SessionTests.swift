import AccessAPI
import Foundation
import Testing

/// Access tokens 1 h, refresh tokens 7 days and rotated; tokens are long random strings.
@Suite struct SessionTests {
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
}
