import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `POST /auth/reauth/email` sends an email, so it has the limits of a code (issue 11, defect 4):
/// 30 s between emails to an address, 3 resends per 15 min, 5 emails per 24 h.
@Suite struct EmailLimitTests {
    private func sendLink(_ backend: TestBackend, token: String) async throws -> Reply {
        try await backend.send(.POST, "/auth/reauth/email", token: token)
    }

    /// The emails that went out; a refused one is a `send_refused` row of its own (`OutboxTextTests`).
    private func emails(_ backend: TestBackend) async throws -> Int {
        try await backend.outbox().filter { $0.channel == "email" && $0.kind != "send_refused" }.count
    }

    private func expectLimited(_ reply: Reply, limit: String, retryAfter: Int) {
        #expect(reply.status == 429)
        #expect(reply.error?.code == "rate_limited")
        #expect(reply.error?.limit == limit)
        #expect(reply.error?.retryAfter == retryAfter)
        #expect(reply.headers["Retry-After"].first == String(retryAfter))
    }

    @Test func thirtySecondsBetweenEmails() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await sendLink(backend, token: token).status == 202)
            expectLimited(try await sendLink(backend, token: token), limit: "cooldown", retryAfter: 30)
            _ = try await backend.advance(seconds: 29)
            expectLimited(try await sendLink(backend, token: token), limit: "cooldown", retryAfter: 1)
            #expect(try await emails(backend) == 1)
            _ = try await backend.advance(seconds: 1)
            #expect(try await sendLink(backend, token: token).status == 202)
            #expect(try await emails(backend) == 2)
        }
    }

    @Test func threeResendsPerFifteenMinutes() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await sendLink(backend, token: token).status == 202)
            // The first link lives 30 min, so each of these is a resend.
            for _ in 0..<3 {
                _ = try await backend.advance(seconds: 30)
                #expect(try await sendLink(backend, token: token).status == 202)
            }
            _ = try await backend.advance(seconds: 30)
            // Resends at 30, 60 and 90 s; the first leaves the window at 30 + 900 s; now is 120 s.
            expectLimited(try await sendLink(backend, token: token), limit: "resend_window", retryAfter: 810)
            _ = try await backend.advance(seconds: 809)
            #expect(try await sendLink(backend, token: token).status == 429)
            #expect(try await emails(backend) == 4)
            _ = try await backend.advance(seconds: 1)
            #expect(try await sendLink(backend, token: token).status == 202)
        }
    }

    @Test func fiveEmailsPerDay() async throws {
        try await TestBackend.with { backend in
            var token = ""
            // An hour apart: each link has expired before the next, so none is a resend.
            for _ in 0..<5 {
                token = try await backend.signIn().accessToken
                #expect(try await sendLink(backend, token: token).status == 202)
                _ = try await backend.advance(seconds: 3600)
            }
            token = try await backend.signIn().accessToken
            // Sent at 0, 1, 2, 3 and 4 h; now is 5 h; the first leaves the day at 24 h.
            expectLimited(try await sendLink(backend, token: token), limit: "daily_cap", retryAfter: 19 * 3600)
            _ = try await backend.advance(seconds: 19 * 3600 - 1)
            token = try await backend.signIn().accessToken
            #expect(try await sendLink(backend, token: token).status == 429)
            #expect(try await emails(backend) == 5)
            _ = try await backend.advance(seconds: 1)
            #expect(try await sendLink(backend, token: token).status == 202)
        }
    }

    @Test func textsAndEmailsAreCountedApart() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await sendLink(backend, token: token).status == 202)
            #expect(try await backend.requestOTP("+995511100000", .reauth, token: token).status == 202)
        }
    }

    @Test func theRefusalIsInTheJournalUnderItsRule() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await sendLink(backend, token: token)
            _ = try await sendLink(backend, token: token)
            let journal: [JournalEntry] = try await backend.get("/_admin/journal").decode()
            #expect(journal.last { $0.path == "/auth/reauth/email" }?.rule == "rate_limit.cooldown")
        }
    }
}
