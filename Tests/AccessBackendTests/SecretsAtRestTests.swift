import AccessAPI
import Crypto
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Codes and tokens are stored as HMACs under a per-database secret; the files are the owner's only;
/// the embedded backend's temporary database sits in a private directory and is swept after a crash
/// (issue 11, defect 5).
@Suite struct SecretsAtRestTests {
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    private static func secret(_ running: RunningBackend) async throws -> Data {
        try await running.store.pool.read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM secrets WHERE name = 'token_hmac'") ?? Data()
        }
    }

    private static func hmac(_ secret: Data, context: String, _ value: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data(context.utf8) + Data([0]) + Data(value.utf8), using: SymmetricKey(data: secret))
        return code.map { String(format: "%02x", $0) }.joined()
    }

    private static func sha256(_ context: String, _ value: String) -> String {
        SHA256.hash(data: Data((context + "\u{0}" + value).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test func codesAndTokensAreStoredAsKeyedHMACs() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            let accepted: OTPRequestAccepted = try await backend.requestOTP(
                "+995511200300", .addPhone, token: tokens.accessToken
            ).decode()
            let code = try await backend.lastCode(to: "+995511200300")
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: tokens.accessToken).status == 202)
            let linkToken = try #require(try await backend.outbox().last { $0.kind == "reauth_link" }?.token)

            let secret = try await Self.secret(backend.running)
            #expect(secret.count == 32)
            let stored = try await backend.running.store.pool.read { db in
                (
                    code: try String.fetchOne(
                        db, sql: "SELECT code_hash FROM otp_requests WHERE id = ?", arguments: [accepted.requestId]),
                    link: try String.fetchOne(db, sql: "SELECT token_hash FROM links"),
                    session: try String.fetchOne(db, sql: "SELECT access_hash FROM sessions")
                )
            }
            #expect(stored.code == Self.hmac(secret, context: accepted.requestId, code))
            #expect(stored.code != Self.sha256(accepted.requestId, code))
            #expect(stored.link == Self.hmac(secret, context: "", linkToken))
            #expect(stored.session == Self.hmac(secret, context: "", tokens.accessToken))
            // And they still work.
            #expect(try await backend.verify(accepted.requestId, code, token: tokens.accessToken).status == 200)
        }
    }

    @Test func theSecretIsMadeOncePerDatabaseAndKept() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString).sqlite")
            .path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let first = try await TestBackend.with(databasePath: path) { backend in
            let secret = try await Self.secret(backend.running)
            // A scenario load wipes the world but not the secret.
            _ = try await backend.post("/_admin/scenario", LoadScenarioBody(name: "phone-only"))
            #expect(try await Self.secret(backend.running) == secret)
            return secret
        }
        let again = try await TestBackend.with(databasePath: path) { try await Self.secret($0.running) }
        #expect(first == again)
        let other = try await TestBackend.with { try await Self.secret($0.running) }
        #expect(other != first)
    }

    @Test func databaseFilesAreOwnerOnly() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("modes-\(UUID().uuidString).sqlite")
            .path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        // A file left world-readable by an older version is tightened too.
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        try await TestBackend.with(databasePath: path) { backend in
            _ = try await backend.signIn()
            for suffix in ["", "-wal", "-shm"] {
                #expect(Self.mode(path + suffix) == 0o600, "\(suffix)")
            }
        }
        try await TestBackend.with { backend in
            _ = try await backend.signIn()
            let temporary = backend.running.databasePath
            for suffix in ["", "-wal", "-shm"] {
                #expect(Self.mode(temporary + suffix) == 0o600, "\(suffix)")
            }
        }
    }

    @Test func theTemporaryDatabaseLivesInAPrivateDirectory() async throws {
        try await TestBackend.with { backend in
            let directory = URL(fileURLWithPath: backend.running.databasePath).deletingLastPathComponent().path
            var info = stat()
            #expect(lstat(directory, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFDIR)
            #expect(info.st_mode & 0o777 == 0o700)
            #expect(info.st_uid == getuid())
            #expect(URL(fileURLWithPath: backend.running.databasePath).lastPathComponent.hasPrefix("db-\(getpid())-"))
        }
    }

    @Test func staleDatabasesOfDeadProcessesAreSweptAtStart() async throws {
        let directory = try TemporaryDatabase.privateDirectory(base: FileManager.default.temporaryDirectory)
        // No process has this id (Linux pids stop at 4194304), so its files are a crash's leftovers.
        let dead = directory + "/db-99999999-\(UUID().uuidString.lowercased()).sqlite"
        let alive = directory + "/db-\(getpid())-\(UUID().uuidString.lowercased()).sqlite"
        let unrelated = directory + "/notes-\(UUID().uuidString).txt"
        for path in [dead, dead + "-wal", dead + "-shm", alive, unrelated] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        }
        defer {
            for path in [dead, dead + "-wal", dead + "-shm", alive, unrelated] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        try await TestBackend.with { _ in
            for path in [dead, dead + "-wal", dead + "-shm"] {
                #expect(!FileManager.default.fileExists(atPath: path))
            }
            #expect(FileManager.default.fileExists(atPath: alive))
            #expect(FileManager.default.fileExists(atPath: unrelated))
        }
    }

    @Test func aDirectoryNameTakenBySomethingElseIsNotTrusted() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("base-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        // A plain file where the directory should be (what a symlink or another user's file amounts to).
        let squatted = base.appendingPathComponent("accessdeck-\(getuid())").path
        #expect(FileManager.default.createFile(atPath: squatted, contents: nil))
        let chosen = try TemporaryDatabase.privateDirectory(base: base)
        #expect(chosen != squatted)
        var info = stat()
        #expect(lstat(chosen, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }
}
