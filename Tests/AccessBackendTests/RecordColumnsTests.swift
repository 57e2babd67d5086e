import AccessAPI
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// The record types read the columns as every earlier version wrote them: a state or a kind is stored as the
/// same word it always was, so a `--db` file written before the records came keeps working without a
/// migration.
@Suite struct RecordColumnsTests {
    private static func withStore(_ body: (Store) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store.open(path: directory.appendingPathComponent("state.sqlite").path)
        defer { try? store.pool.close() }
        try body(store)
    }

    /// Rows written with SQL and the literal words older versions used, then read back as records.
    @Test func rowsWrittenAsBeforeReadBackTyped() throws {
        try Self.withStore { store in
            try store.pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO users (id, role, is_primary, email, email_unverified, onboarding_step)
                        VALUES ('usr_1', 'coach', 1, 'a@mail.com', 1, 'recovery_email');
                        INSERT INTO code_challenges
                            (id, purpose, user_id, channel, destination, code_hash, created_at, expires_at,
                            resend_after, state)
                        VALUES ('otp_1', 'change_phone', 'usr_1', 'phone', '+1', 'h', 0, 300, 30, 'dead'),
                            ('otp_2', 'reverify_phone', 'usr_1', 'phone', '+1', 'h', 0, 300, 30, 'cancelled'),
                            ('chl_1', 'sign_in', NULL, 'email', 'a@mail.com', 'h', 0, 300, 30, 'superseded');
                        INSERT INTO sessions
                            (access_hash, refresh_hash, user_id, access_expires_at, refresh_expires_at, family_id,
                            access)
                        VALUES ('at', 'rt', 'usr_1', 1, 2, 'sf', 'limited');
                        INSERT INTO links (token_hash, user_id, purpose, expires_at, used, email)
                        VALUES ('l1', 'usr_1', 'email_revert', 5, 1, 'old@mail.com'),
                            ('l2', 'usr_1', 'register', 5, 0, 'a@mail.com');
                        INSERT INTO reauth_grants (token_hash, user_id, method, expires_at)
                        VALUES ('g', 'usr_1', 'apple', 9);
                        INSERT INTO sends (channel, recipient, sent_at, is_resend) VALUES ('sms', '+1', 3, 1);
                        INSERT INTO outbox (channel, recipient, kind, purpose, sent_at)
                        VALUES ('email', 'a@mail.com', 'lockout_notice', 'login', 4);
                        INSERT INTO scheduled_items (user_id, kind, title, starts_at)
                        VALUES ('usr_1', 'booking', 'Run', 6);
                        INSERT INTO provider_grants (user_id, provider, subject, linked_at)
                        VALUES ('usr_1', 'google', 's', 1);
                        INSERT INTO meta (key, value) VALUES ('starts_signed_out', '1');
                        """)
            }
            try store.pool.read { db in
                let user = try #require(try UserRecord.fetchOne(db, key: "usr_1"))
                #expect(user.role == .coach && user.emailUnverified && user.onboardingStep == .recoveryEmail)
                let codes = try CodeChallengeRecord.fetchAll(
                    db, sql: "SELECT * FROM code_challenges WHERE user_id IS NOT NULL ORDER BY id")
                #expect(codes.map(\.state) == [.dead, .cancelled])
                #expect(codes.map(\.purpose) == [.changePhone, .reverifyPhone])
                let challenge = try #require(try CodeChallengeRecord.fetchOne(db, key: "chl_1"))
                #expect(challenge.channel == .email && challenge.state == .superseded && challenge.userId == nil)
                #expect(challenge.purpose == .signIn)
                #expect(try SessionRecord.fetchOne(db, key: "at")?.access == .limited)
                let links = try LinkRecord.fetchAll(db, sql: "SELECT * FROM links ORDER BY token_hash")
                #expect(links.map(\.purpose) == [.emailRevert, .register])
                #expect(links.map(\.used) == [true, false])
                #expect(try ReauthGrantRecord.fetchOne(db, key: "g")?.method == .apple)
                #expect(try SendRecord.fetchOne(db)?.channel == .sms)
                let message = try #require(try OutboxRecord.fetchOne(db))
                #expect(message.channel == .email && message.kind == .lockoutNotice)
                #expect(try ScheduledItemRecord.fetchOne(db)?.kind == .booking)
                #expect(try ProviderGrantRecord.fetchOne(db)?.provider == .google)
                #expect(try MetaRecord.value(db, .startsSignedOut) == "1")
            }
        }
    }

    /// And the other way: what the records write is the words the schema's CHECK constraints allow.
    @Test func theCodeStatesAndPurposesAreTheOnesTheSchemaAllows() throws {
        try Self.withStore { store in
            let schema = try #require(
                try store.pool.read { db in
                    try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'code_challenges'")
                })
            func allowed(_ column: String) -> Set<String> {
                Set(
                    schema.matches(of: try! Regex("\\b\(column) IN \\(([^)]*)\\)")).flatMap { match in
                        String(match.output[1].substring ?? "").split(separator: ",").map {
                            $0.trimmingCharacters(in: CharacterSet(charactersIn: " '\n"))
                        }
                    })
            }
            #expect(allowed("state") == Set(CodeState.allCases.map(\.rawValue)))
            #expect(allowed("purpose") == Set(CodePurpose.allCases.map(\.rawValue)))
        }
    }
}
