import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

/// Issue 51 item 1: `GET /_admin/journal` and `/_admin/journal/count` answer questions, over real HTTP. Each
/// filter is shown keeping what it names and leaving out what it does not.
@Suite struct JournalFilterTests {
    /// A signed-in read (200, for usr_athlete), a read without a session (401, for nobody) and a POST that
    /// signs in, then a minute later one more signed-in read. Returns the clock before and after the minute.
    private func walk(_ backend: TestBackend) async throws -> (before: Date, after: Date) {
        let tokens = try await backend.signIn()
        #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 200)
        #expect(try await backend.get("/me/auth-methods").status == 401)
        let before = try await backend.get("/_admin/clock").decode(ClockState.self).now
        let after = try await backend.advance(seconds: 60).now
        #expect(try await backend.get("/me/profile", token: tokens.accessToken).status == 200)
        return (before, after)
    }

    private func paths(_ backend: TestBackend, _ query: String) async throws -> [String] {
        let reply = try await backend.get("/_admin/journal?" + query)
        #expect(reply.status == 200, "\(query): \(reply.status)")
        return try reply.decode([JournalEntry].self).map { "\($0.method) \($0.path) \($0.status)" }
    }

    private func count(_ backend: TestBackend, _ query: String) async throws -> Int {
        let reply = try await backend.get("/_admin/journal/count?" + query)
        #expect(reply.status == 200, "\(query): \(reply.status)")
        return try reply.decode(JournalCount.self).count
    }

    @Test func pathIsExactOrAPrefixWithAStar() async throws {
        try await TestBackend.with { backend in
            _ = try await walk(backend)
            #expect(
                try await paths(backend, "path=/me/auth-methods") == [
                    "GET /me/auth-methods 200", "GET /me/auth-methods 401",
                ])
            #expect(try await paths(backend, "path=/me/auth").isEmpty)
            #expect(try await count(backend, "path=/me/*") == 3)
            #expect(try await count(backend, "path=/me/auth") == 0)
            #expect(try await count(backend, "path=/auth/*") == 0)
        }
    }

    @Test func methodNamesOneMethodInAnyCase() async throws {
        try await TestBackend.with { backend in
            _ = try await walk(backend)
            #expect(try await paths(backend, "method=post&path=/_admin/session") == ["POST /_admin/session 200"])
            #expect(try await count(backend, "method=GET&path=/_admin/session") == 0)
        }
    }

    @Test func statusIsACodeOrAClass() async throws {
        try await TestBackend.with { backend in
            _ = try await walk(backend)
            #expect(try await paths(backend, "status=401") == ["GET /me/auth-methods 401"])
            #expect(try await paths(backend, "status=4xx") == ["GET /me/auth-methods 401"])
            #expect(try await count(backend, "status=404") == 0)
            #expect(try await count(backend, "status=2xx&path=/me/*") == 2)
            #expect(try await count(backend, "status=5xx") == 0)
        }
    }

    @Test func ruleNamesTheDecidingRule() async throws {
        try await TestBackend.with { backend in
            _ = try await walk(backend)
            #expect(try await paths(backend, "rule=session.invalid") == ["GET /me/auth-methods 401"])
            #expect(try await count(backend, "rule=session.invalid&status=200") == 0)
        }
    }

    @Test func userIsWhoTheRequestActedFor() async throws {
        try await TestBackend.with { backend in
            _ = try await walk(backend)
            let entries = try await backend.get("/_admin/journal?path=/me/*").decode([JournalEntry].self)
            #expect(entries.map(\.user) == ["usr_athlete", nil, "usr_athlete"])
            #expect(
                try await paths(backend, "user=usr_athlete") == [
                    "POST /_admin/session 200", "GET /me/auth-methods 200", "GET /me/profile 200",
                ])
            #expect(try await count(backend, "user=usr_nobody") == 0)
        }
    }

    @Test func sinceAndUntilAreOnTheBackendsClock() async throws {
        try await TestBackend.with { backend in
            let (before, after) = try await walk(backend)
            let style = Date.ISO8601FormatStyle()
            #expect(try await paths(backend, "path=/me/*&since=\(after.formatted(style))") == ["GET /me/profile 200"])
            #expect(
                try await paths(backend, "path=/me/*&until=\(before.formatted(style))") == [
                    "GET /me/auth-methods 200", "GET /me/auth-methods 401",
                ])
            #expect(
                try await count(
                    backend,
                    "path=/me/*&since=\(before.addingTimeInterval(1).formatted(style))"
                        + "&until=\(after.addingTimeInterval(-1).formatted(style))") == 0)
        }
    }

    @Test func limitKeepsTheNewestOfWhatPasses() async throws {
        try await TestBackend.with { backend in
            _ = try await walk(backend)
            #expect(try await paths(backend, "path=/me/*&limit=1") == ["GET /me/profile 200"])
            #expect(try await paths(backend, "path=/me/*&limit=0").isEmpty)
        }
    }

    @Test func eachWorldAnswersForItsOwnJournal() async throws {
        try await TestBackend.with { backend in
            _ = try await walk(backend)
            #expect(try await backend.get("/w/other/me/auth-methods").status == 401)
            let other = try await backend.get("/w/other/_admin/journal/count?path=/me/*").decode(JournalCount.self)
            #expect(other.count == 1)
            #expect(try await count(backend, "path=/me/*") == 3)
        }
    }

    @Test func aFilterThatDoesNotReadIsA400WithItsReason() async throws {
        try await TestBackend.with { backend in
            for query in [
                "status=abc", "status=600", "status=9xx", "path=me", "path=", "method=G1",
                "since=yesterday", "until=2026-13-45",
            ] {
                for route in ["/_admin/journal?", "/_admin/journal/count?"] {
                    let reply = try await backend.get(route + query)
                    #expect(reply.status == 400, "\(route)\(query)")
                    #expect(reply.error?.code != nil, "\(route)\(query): a JSON error body")
                }
            }
            let reply = try await backend.get("/_admin/journal?status=abc")
            #expect(reply.error?.code == "invalid_parameter")
            #expect(reply.error?.message.contains("status") == true)
        }
    }

    /// A rule id no rule has is well-formed and names nothing: 422, so the contract's fuzzing, which cannot
    /// know the catalogue, does not read it as a valid request refused.
    @Test func aRuleNoRuleHasIsA422() async throws {
        try await TestBackend.with { backend in
            for route in ["/_admin/journal?", "/_admin/journal/count?"] {
                let reply = try await backend.get(route + "rule=otp.nope")
                #expect(reply.status == 422, "\(route)")
                #expect(reply.error?.code == "invalid_parameter")
                #expect(try await backend.get(route + "rule=rate_limit.cooldown").status == 200)
            }
        }
    }
}
