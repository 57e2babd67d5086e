import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// The rules' queries use indexes, and rows no rule needs any more are deleted, so the write paths
/// cost the same after a week of traffic as on the first request (issue 11, defect 7).
@Suite struct RetentionTests {
    private static func count(_ backend: TestBackend, _ table: String) async throws -> Int {
        try await backend.running.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
        }
    }

    private static func plan(
        _ backend: TestBackend, _ sql: String, _ arguments: StatementArguments
    ) async throws
        -> String
    {
        try await backend.running.store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                .map { $0["detail"] as String }.joined(separator: "; ")
        }
    }

    @Test func theRulesQueriesUseIndexes() async throws {
        try await TestBackend.with { backend in
            let live = try await Self.plan(
                backend,
                """
                SELECT id FROM code_challenges WHERE destination = ? AND user_id IS ? AND state = 'open'
                AND expires_at > ?
                """,
                ["+995511200300", "u", 0])
            #expect(live.contains("USING INDEX code_challenges_live"), "\(live)")
            let signIn = try await Self.plan(
                backend,
                """
                SELECT id FROM code_challenges WHERE destination = ? AND user_id IS ? AND state = 'open'
                AND expires_at > ?
                """,
                ["jdoe@mail.com", nil, 0])
            #expect(signIn.contains("USING INDEX code_challenges_live"), "\(signIn)")
            let sends = try await Self.plan(
                backend, "SELECT sent_at FROM sends WHERE recipient = ? AND sent_at > ? ORDER BY sent_at",
                ["+995511200300", 0])
            #expect(
                sends.contains("USING COVERING INDEX sends_recipient") || sends.contains("USING INDEX sends_recipient"),
                "\(sends)")
            let links = try await Self.plan(
                backend,
                "SELECT 1 FROM links WHERE user_id = ? AND purpose = 'reauth' AND used = 0 AND expires_at > ?",
                ["u", 0])
            #expect(links.contains("links_user"), "\(links)")
        }
    }

    @Test func rowsNoRuleNeedsArePruned() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            let accepted: OTPRequestAccepted = try await backend.requestOTP(
                "+995511200300", .addPhone, token: tokens.accessToken
            ).decode()
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: tokens.accessToken).status == 202)
            _ = try await backend.passwordGrant(token: tokens.accessToken)
            #expect(try await Self.count(backend, "sends") == 2)

            // Ten minutes on: the code has expired but is kept, so it still answers "expired", not "unknown".
            _ = try await backend.advance(seconds: 600)
            _ = try await backend.signIn()
            #expect(try await backend.verify(accepted.requestId, "000000", token: tokens.accessToken).status == 410)
            #expect(try await Self.count(backend, "code_challenges") == 1)
            #expect(try await Self.count(backend, "sends") == 2)

            // Past every window: a day and more.
            _ = try await backend.advance(seconds: 25 * 3600)
            _ = try await backend.signIn()
            #expect(try await Self.count(backend, "sends") == 0)
            #expect(try await Self.count(backend, "code_challenges") == 0)
            #expect(try await Self.count(backend, "links") == 0)
            #expect(try await Self.count(backend, "reauth_grants") == 0)
            // Refresh tokens last 7 days: all three sessions are still refreshable.
            #expect(try await Self.count(backend, "sessions") == 3)
            _ = try await backend.advance(seconds: 7 * 86_400)
            _ = try await backend.signIn()
            #expect(try await Self.count(backend, "sessions") == 1)
        }
    }

    @Test func aRotatedRefreshTokenLeavesNoRowBehind() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            let next = try await backend.post("/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken))
            #expect(next.status == 200)
            #expect(try await Self.count(backend, "sessions") == 1)
            _ = try await backend.advance(seconds: RefreshRules.reuseInterval)
            let reused = try await backend.post("/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken))
            #expect(reused.status == 401)
        }
    }

    /// The pair a rotation issued is kept sealed for the reuse interval only: the next pruning after it
    /// clears the copy.
    @Test func theSealedPairOfARotationGoesAfterTheReuseInterval() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            let next: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken)
            ).decode()
            func sealed() async throws -> [Data?] {
                try await backend.running.store.pool.read { db in
                    try Data?.fetchAll(db, sql: "SELECT successor_sealed FROM spent_refresh_tokens")
                }
            }
            let copy = try #require(try await sealed().first ?? nil)
            #expect(copy.range(of: Data(next.refreshToken.utf8)) == nil)
            _ = try await backend.advance(seconds: RetentionService.interval)
            _ = try await backend.signIn()
            #expect(try await sealed() == [nil])
        }
    }

    /// Reuse detection keeps a rotated refresh token's digest (never the token) while the token would
    /// still have been valid, and no longer.
    @Test func aSpentRefreshTokenIsKeptAsADigestForItsSevenDaysOnly() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            #expect(
                try await backend.post("/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken)).status == 200)
            let spent = try await backend.running.store.pool.read { db in
                try String.fetchAll(db, sql: "SELECT refresh_hash FROM spent_refresh_tokens")
            }
            #expect(spent == [backend.running.store.digest(tokens.refreshToken)])
            #expect(!spent.contains(tokens.refreshToken))
            _ = try await backend.advance(seconds: 7 * 86_400)
            _ = try await backend.signIn()
            #expect(try await Self.count(backend, "spent_refresh_tokens") == 0)
        }
    }

    @Test func theOutboxKeepsTheNewestThousand() async throws {
        try await TestBackend.with { backend in
            let now = Date()
            try await backend.running.store.pool.write { db in
                for index in 0..<(RetentionService.outboxCapacity + 5) {
                    try OutboxService.send(
                        db, .init(channel: .sms, recipient: "+99559\(index)", kind: .otp, purpose: "reauth"),
                        now: now)
                }
            }
            let messages = try await backend.outbox()
            #expect(messages.count == RetentionService.outboxCapacity)
            #expect(messages.last?.to == "+99559\(RetentionService.outboxCapacity + 4)")
        }
    }

    /// The cap counts messages, not the events written beside them: with many more events than messages
    /// (sign-ins, sessions, refusals), a new message stays and so do the ones before it.
    @Test func theOutboxCapCountsMessagesNotEvents() async throws {
        try await TestBackend.with { backend in
            let now = Date()
            try await backend.running.store.pool.write { db in
                try OutboxService.send(
                    db, .init(channel: .sms, recipient: "+995590000001", kind: .otp, purpose: "reauth"), now: now)
                for _ in 0..<(RetentionService.outboxCapacity + 5) {
                    try EventLog.append(db, .init(kind: .signedIn, userId: nil), now: now)
                }
                try OutboxService.send(
                    db, .init(channel: .sms, recipient: "+995590000002", kind: .otp, purpose: "reauth"), now: now)
            }
            #expect(try await backend.outbox().map(\.to) == ["+995590000001", "+995590000002"])
        }
    }
}
