import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// DESIGN §6: scenarios, outbox, clock, faults, journal.
@Suite struct AdminTests {
    @Test func listsEveryRequiredScenario() async throws {
        try await TestBackend.with { backend in
            let names = Set(try await backend.get("/_admin/scenarios").decode([ScenarioSummary].self).map(\.name))
            let required: Set = [
                "default", "phone-only", "apple-only", "email-only", "no-phone", "coach", "taken-number",
                "resend-exhausted", "daily-cap-reached", "apple-google", "google-elsewhere", "coach-sessions",
                "coach-payout", "coach-both", "athlete-bookings",
            ]
            #expect(required.isSubset(of: names))
        }
    }

    @Test func loadingAScenarioResetsTheWorld() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await backend.requestOTP("+995511200300", .addPhone, token: token)
            let loaded = try await backend.post("/_admin/scenario", LoadScenarioBody(name: "coach"))
            #expect(loaded.status == 200)
            #expect(try await backend.outbox().isEmpty)
            #expect(try await backend.get("/me/auth-methods", token: token).status == 401)
            let coach = try await backend.signIn()
            #expect(
                try await backend.get("/me/auth-methods", token: coach.accessToken).decode(AuthMethods.self).role.known
                    == .coach)
        }
    }

    @Test func unknownScenarioIs404AndListsTheNames() async throws {
        try await TestBackend.with { backend in
            let reply = try await backend.post("/_admin/scenario", LoadScenarioBody(name: "nope"))
            #expect(reply.status == 404)
            #expect(reply.error?.code == "unknown_scenario")
            #expect(reply.error?.message.contains("taken-number") == true)
        }
    }

    @Test func advancingToTheNextDeadlineReportsWhatExpired() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP("+995511200300", .addPhone, token: token)
                .decode()
            let first = try await backend.advanceToNextDeadline()
            #expect(first.now.timeIntervalSince(first.from) == 30)
            #expect(first.events.map(\.kind) == ["resend_cooldown_over"])
            let second = try await backend.advanceToNextDeadline()
            #expect(second.now.timeIntervalSince(first.from) == 300)
            #expect(
                second.events.contains(
                    DeadlineEvent(at: accepted.expiresAt, kind: "otp_expired", subject: accepted.requestId)))
            let code = try await backend.lastCode(to: "+995511200300")
            #expect(try await backend.verify(accepted.requestId, code, token: token).status == 410)
        }
    }

    @Test func advancingBySecondsListsEverythingOnTheWay() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await backend.requestOTP("+995511200300", .addPhone, token: token)
            let moved = try await backend.advance(seconds: 3600)
            let kinds = moved.events.map(\.kind)
            #expect(kinds == ["resend_cooldown_over", "otp_expired", "access_token_expired"])
            let clock: ClockState = try await backend.get("/_admin/clock").decode()
            #expect(clock.now == moved.now && clock.frozen)
        }
    }

    @Test func badAdvanceIs422() async throws {
        try await TestBackend.with { backend in
            let bodies = [ClockAdvanceBody(), ClockAdvanceBody(seconds: -5), ClockAdvanceBody(to: "tomorrow")]
            for body in bodies {
                let reply = try await backend.post("/_admin/clock/advance", body)
                #expect(reply.status == 422)
            }
        }
    }

    @Test func offlineFaultAnswers503ButAdminStillWorks() async throws {
        try await TestBackend.with { backend in
            #expect(try await backend.post("/_admin/faults", FaultSettings(offline: "503")).status == 200)
            let reply = try await backend.get("/health")
            #expect(reply.status == 503)
            #expect(reply.error?.code == "offline")
            #expect(try await backend.get("/_admin/clock").status == 200)
            #expect(try await backend.send(.DELETE, "/_admin/faults").status == 200)
            #expect(try await backend.get("/health").status == 200)
        }
    }

    @Test func dropFaultClosesTheConnectionWithoutAnAnswer() async throws {
        try await TestBackend.with { backend in
            _ = try await backend.post("/_admin/faults", FaultSettings(offline: "drop"))
            await #expect(throws: (any Error).self) { try await backend.get("/health") }
            _ = try await backend.send(.DELETE, "/_admin/faults")
            #expect(try await backend.get("/health").status == 200)
        }
    }

    @Test func statusFaultHitsOnlyItsPath() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await backend.post(
                "/_admin/faults", FaultSettings(statuses: [PathFault(path: "/me/auth-methods", status: 500)]))
            let reply = try await backend.get("/me/auth-methods", token: token)
            #expect(reply.status == 500)
            #expect(reply.error?.code == "fault_injected")
            #expect(try await backend.get("/health").status == 200)
            #expect(try await backend.post("/_admin/faults", FaultSettings(offline: "sometimes")).status == 422)
            _ = try await backend.post(
                "/_admin/faults", FaultSettings(statuses: [PathFault(path: "/health", status: 429)]))
            let limited = try await backend.get("/health")
            #expect(limited.status == 429)
            #expect(limited.headers["Retry-After"].first == "30")
        }
    }

    @Test func latencyFaultIsRecordedInTheJournal() async throws {
        try await TestBackend.with { backend in
            _ = try await backend.post("/_admin/faults", FaultSettings(latencyMs: 50))
            _ = try await backend.get("/health")
            let entry = try #require(
                try await backend.get("/_admin/journal").decode([JournalEntry].self).last { $0.path == "/health" })
            #expect(entry.ms >= 50)
        }
    }

    @Test func journalNamesTheDecidingRuleAndNoSecrets() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP("+995511200300", .addPhone, token: token)
                .decode()
            let code = try await backend.lastCode(to: "+995511200300")
            _ = try await backend.verify(accepted.requestId, code == "000000" ? "111111" : "000000", token: token)
            _ = try await backend.requestOTP("+995511200300", .addPhone, token: token)
            let reply = try await backend.get("/_admin/journal")
            let entries: [JournalEntry] = try reply.decode()
            let rules = entries.filter { $0.path.hasPrefix("/auth") }.map { "\($0.status) \($0.rule)" }
            #expect(rules.contains("202 otp.sent"))
            #expect(rules.contains("401 otp.code_incorrect"))
            #expect(rules.contains("429 rate_limit.cooldown"))
            let text = String(decoding: reply.data, as: UTF8.self)
            #expect(!text.contains(token) && !text.contains(code))
        }
    }
}
