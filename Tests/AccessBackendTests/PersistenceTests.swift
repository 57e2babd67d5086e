import AccessAPI
import AccessBackendTesting
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// With a database path, state survives a restart; the scenario is loaded only into an empty database.
@Suite struct PersistenceTests {
    @Test func changedPhoneSurvivesARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("persist-\(UUID().uuidString).sqlite")
            .path
        defer {
            for suffix in ["", "-wal", "-shm", ".key"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let refresh: String = try await TestBackend.with(scenario: "no-phone", databasePath: path) { backend in
            let tokens = try await backend.signIn()
            let accepted: OTPRequestAccepted = try await backend.requestOTP(
                "+995511200300", .addPhone, token: tokens.accessToken
            ).decode()
            let code = try await backend.lastCode(to: "+995511200300")
            #expect(try await backend.verify(accepted.requestId, code, token: tokens.accessToken).status == 200)
            return tokens.refreshToken
        }
        #expect(FileManager.default.fileExists(atPath: path))
        try await TestBackend.with(scenario: "default", databasePath: path) { backend in
            let tokens: SessionTokens = try await backend.post("/auth/refresh", RefreshBody(refreshToken: refresh))
                .decode()
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: tokens.accessToken).decode()
            #expect(methods.userId == "usr_nophone")
            #expect(methods.phone == "+995511200300")
        }
    }

    /// A temporary database is deleted at exit, so it skips the fsyncs that only guard against a crash (creating
    /// it waited on several, tens of ms of the app's start); a `--db` file keeps SQLite's durability.
    @Test func onlyATemporaryDatabaseSkipsFsync() async throws {
        func synchronous(_ backend: TestBackend) async throws -> Int? {
            try await backend.running.store.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        }
        let temporary = try await TestBackend.with { backend in try await synchronous(backend) }
        #expect(temporary == 0)  // OFF
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString).sqlite")
            .path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let durable = try await TestBackend.with(databasePath: path) { backend in try await synchronous(backend) }
        #expect(durable != nil && durable != 0)
    }

    @Test func temporaryDatabaseIsRemovedAtShutdown() async throws {
        let running = try await ReferenceBackend.start(
            .init(fixturesDirectory: TestBackend.fixtures, frozenClock: true))
        let path = running.databasePath
        #expect(FileManager.default.fileExists(atPath: path))
        await running.shutdown()
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix))
        }
    }
}
