import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// 30 s between sends, 3 resends per 15 min, 5 codes per 24 h; 429 tells how long to wait.
@Suite struct RateLimitTests {
    private func resend(_ backend: TestBackend, _ id: String, token: String) async throws -> Reply {
        try await backend.post("/auth/phone/resend-otp", OTPRequestRef(requestId: id), token: token)
    }

    private func expectLimited(_ reply: Reply, limit: String, retryAfter: Int) {
        #expect(reply.status == 429)
        #expect(reply.error?.code == "rate_limited")
        #expect(reply.error?.limit == limit)
        #expect(reply.error?.retryAfter == retryAfter)
        #expect(reply.headers["Retry-After"].first == String(retryAfter))
    }

    @Test func thirtySecondsBetweenSends() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let first: OTPRequestAccepted = try await backend.requestOTP("+995511200300", .addPhone, token: token)
                .decode()
            expectLimited(try await resend(backend, first.requestId, token: token), limit: "cooldown", retryAfter: 30)
            _ = try await backend.advance(seconds: 29)
            expectLimited(try await resend(backend, first.requestId, token: token), limit: "cooldown", retryAfter: 1)
            _ = try await backend.advance(seconds: 1)
            #expect(try await resend(backend, first.requestId, token: token).status == 202)
        }
    }

    @Test func aNewRequestForTheSameNumberAlsoWaitsThirtySeconds() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP("+995511200300", .addPhone, token: token).status == 202)
            expectLimited(
                try await backend.requestOTP("+995511200300", .addPhone, token: token), limit: "cooldown",
                retryAfter: 30)
            // Another number is not affected.
            #expect(try await backend.requestOTP(.georgian(1), .addPhone, token: token).status == 202)
        }
    }

    @Test func threeResendsPerFifteenMinutes() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let first: OTPRequestAccepted = try await backend.requestOTP("+995511200300", .addPhone, token: token)
                .decode()
            for _ in 0..<3 {
                _ = try await backend.advance(seconds: 30)
                #expect(try await resend(backend, first.requestId, token: token).status == 202)
            }
            _ = try await backend.advance(seconds: 30)
            // Resends went out at 30, 60 and 90 s; the first leaves the window at 30 + 900 s; now is 120 s.
            expectLimited(
                try await resend(backend, first.requestId, token: token), limit: "resend_window", retryAfter: 810)
            _ = try await backend.advance(seconds: 809)
            #expect(try await resend(backend, first.requestId, token: token).status == 429)
            _ = try await backend.advance(seconds: 1)
            #expect(try await resend(backend, first.requestId, token: token).status == 202)
        }
    }

    @Test func aNewRequestWhileACodeIsLiveCountsAsAResend() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP("+995511200300", .addPhone, token: token).status == 202)
            for _ in 0..<3 {
                _ = try await backend.advance(seconds: 30)
                #expect(try await backend.requestOTP("+995511200300", .addPhone, token: token).status == 202)
            }
            _ = try await backend.advance(seconds: 30)
            let reply = try await backend.requestOTP("+995511200300", .addPhone, token: token)
            #expect(reply.status == 429)
            #expect(reply.error?.limit == "resend_window")
        }
    }

    @Test func fiveCodesPerDay() async throws {
        try await TestBackend.with { backend in
            var token = ""
            // Spaced so neither the cooldown nor the resend window interferes: every code expires first.
            // A fresh session each hour, since access tokens last one hour.
            for _ in 0..<5 {
                token = try await backend.signIn().accessToken
                #expect(try await backend.requestOTP("+995511200300", .addPhone, token: token).status == 202)
                _ = try await backend.advance(seconds: 3600)
            }
            token = try await backend.signIn().accessToken
            // Codes went out at 0, 1, 2, 3 and 4 h; now is 5 h; the first leaves the day at 24 h.
            expectLimited(
                try await backend.requestOTP("+995511200300", .addPhone, token: token), limit: "daily_cap",
                retryAfter: 19 * 3600)
            _ = try await backend.advance(seconds: 19 * 3600)
            token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP("+995511200300", .addPhone, token: token).status == 202)
        }
    }

    @Test func dailyCapScenarioRefusesAtOnce() async throws {
        try await TestBackend.with(scenario: "daily-cap-reached") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            // The oldest of the five was 80000 s ago: it leaves the day in 6400 s.
            expectLimited(
                try await backend.requestOTP(
                    "+995511999999", .changePhone, token: token, reauth: grant.reauthToken),
                limit: "daily_cap",
                retryAfter: 6400)
            // Nothing went out: the outbox holds only the refused send, as a row of its own.
            #expect(try await backend.outbox().map(\.kind) == ["send_refused"])
        }
    }

    @Test func resendExhaustedScenarioRefusesTheFirstResend() async throws {
        try await TestBackend.with(scenario: "resend-exhausted") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            let first: OTPRequestAccepted = try await backend.requestOTP(
                "+995511999999", .changePhone, token: token, reauth: grant.reauthToken
            ).decode()
            _ = try await backend.advance(seconds: 30)
            // Resends 300, 200 and 100 s ago (now 330, 230, 130): the oldest frees a slot in 570 s, after the
            // new code has expired, so "code expired, then resend refused" can be shown on a moved clock.
            expectLimited(
                try await resend(backend, first.requestId, token: token), limit: "resend_window", retryAfter: 570)
        }
    }
}
