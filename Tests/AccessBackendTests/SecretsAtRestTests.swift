import AccessAPI
import AccessBackendTesting
import Crypto
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Codes and tokens are stored as HMACs under a secret of each database, kept out of it (a key file
/// beside it, or memory) with which the outbox is sealed too (issue 25, defect 5); the files are the
/// owner's only; the embedded backend's temporary database sits in a private directory and is swept after
/// a crash (issue 11, defect 5).
@Suite struct SecretsAtRestTests {
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    /// The key the running backend holds (in memory, and in its key file with a database path).
    private static func secret(_ running: RunningBackend) -> Data {
        running.store.key.key.withUnsafeBytes { Data($0) }
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", ".key"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private static func hmac(_ secret: Data, context: String, _ value: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data(context.utf8) + Data([0]) + Data(value.utf8), using: SymmetricKey(data: secret))
        return code.map { String(format: "%02x", $0) }.joined()
    }

    private static func sha256(_ context: String, _ value: String) -> String {
        SHA256.hash(data: Data((context + "\u{0}" + value).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test func aDigestIsTheKeyedHMACOfContextSeparatorAndSecret() {
        // The digest joins its parts into one update (issue 34 item 2): the stored form must not change, with
        // or without a context, for a short code or a secret longer than any token.
        let key = Data((0..<32).map { UInt8($0) })
        let digest = TokenDigest(key: SymmetricKey(data: key))
        for (secret, context) in [
            ("at_abc", ""), ("123456", "otp:+995511100000"), (String(repeating: "é", count: 3000), "x"), ("", ""),
        ] {
            #expect(digest(secret, context: context) == Self.hmac(key, context: context, secret))
        }
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

            let secret = Self.secret(backend.running)
            #expect(secret.count == 32)
            let stored = try await backend.running.store.pool.read { db in
                (
                    code: try String.fetchOne(
                        db, sql: "SELECT code_hash FROM code_challenges WHERE id = ?", arguments: [accepted.requestId]),
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

    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("at-rest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Issue 25, defect 5: the outbox kept codes, links and tokens in clear and the HMAC key sat in the same
    /// file, so a copy of the database gave live codes. A copy of the database files alone (as a backup or
    /// a stolen disk has them, without the key file beside them) holds neither; the admin outbox still
    /// shows them.
    @Test func aCopyOfTheDatabaseAloneGivesNoCodeLinkTokenOrKey() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.sqlite").path
        let copy = directory.appendingPathComponent("copy.sqlite").path
        try await TestBackend.with(databasePath: path) { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP("+995511200300", .addPhone, token: token).status == 202)
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            let outbox = try await backend.outbox()
            let code = try #require(outbox.last { $0.kind == "otp" }?.code)
            let link = try #require(outbox.last { $0.kind == "reauth_link" })
            let linkToken = try #require(link.token)
            #expect(link.link?.hasSuffix(linkToken) == true)

            for suffix in ["", "-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
            let key = try #require(FileManager.default.contents(atPath: path + ".key"), "no key file beside the db")
            #expect(key.count == 32)
            for suffix in ["", "-wal", "-shm"] {
                let bytes = FileManager.default.contents(atPath: copy + suffix) ?? Data()
                #expect(bytes.range(of: Data(linkToken.utf8)) == nil, "link token in \(suffix)")
                #expect(bytes.range(of: key) == nil, "key in \(suffix)")
            }
            // Read as SQLite: no column of the outbox holds the code, the link or its token.
            let rows = try DatabaseQueue(path: copy).read { db in try Row.fetchAll(db, sql: "SELECT * FROM outbox") }
            #expect(rows.count == outbox.count)
            for row in rows {
                for value in row.databaseValues {
                    guard let text = String.fromDatabaseValue(value) else { continue }
                    #expect(text != code && !text.contains(linkToken), "\(row)")
                }
            }
            let keyRows = try await DatabaseQueue(path: copy).read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM secrets WHERE name = 'token_hmac'")
            }
            #expect(keyRows == 0)
        }
    }

    @Test func theKeyFileIsOwnerOnlyAndTheTemporaryDatabaseHasNone() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.sqlite").path
        try await TestBackend.with(databasePath: path) { _ in }
        #expect(Self.mode(path + ".key") == 0o600)
        try await TestBackend.with { backend in
            #expect(!FileManager.default.fileExists(atPath: backend.running.databasePath + ".key"))
        }
    }

    @Test func withoutItsKeyFileADatabaseIsRefusedNotReKeyed() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.sqlite").path
        try await TestBackend.with(databasePath: path) { backend in _ = try await backend.signIn() }
        let key = try #require(FileManager.default.contents(atPath: path + ".key"))
        try FileManager.default.removeItem(atPath: path + ".key")
        await #expect(throws: (any Error).self) { try await TestBackend.with(databasePath: path) { _ in } }
        // Another database's key is refused too.
        #expect(FileManager.default.createFile(atPath: path + ".key", contents: Data(repeating: 7, count: 32)))
        await #expect(throws: (any Error).self) { try await TestBackend.with(databasePath: path) { _ in } }
        try FileManager.default.removeItem(atPath: path + ".key")
        #expect(FileManager.default.createFile(atPath: path + ".key", contents: key))
        try await TestBackend.with(databasePath: path) { backend in _ = try await backend.signIn() }
    }

    /// A database from before: its key in its `secrets` table, its outbox in clear. Opening it moves the key
    /// to the key file (the digests made with it still match) and seals the outbox in place; afterwards no
    /// byte of the key or of a link token is left in the database files.
    @Test func aDatabaseFromBeforeIsMigrated() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.sqlite").path
        let legacyKey = Data((0..<32).map { UInt8($0 + 100) })
        let linkToken = "lk_" + String(repeating: "q", count: 43)
        do {
            let old = try DatabaseQueue(path: path)
            try await old.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try Store.migrator(sealer: nil).migrate(old, upTo: Store.lastMigrationWithoutKey)
            try await old.write { db in
                try db.execute(
                    sql: "INSERT INTO secrets (name, value) VALUES ('token_hmac', ?)", arguments: [legacyKey])
                // A database already in use: its scenario is not loaded again over it.
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('scenario', 'default')")
                try db.execute(
                    sql: """
                        INSERT INTO outbox (channel, recipient, kind, purpose, code, link, token, sent_at)
                        VALUES ('sms', '+995511200300', 'otp', 'add_phone', '402913', NULL, NULL, 1),
                            ('email', 'jdoe@mail.com', 'reauth_link', 'reauth', NULL, ?, ?, 2)
                        """,
                    arguments: ["https://321.fit/verify-email?token=\(linkToken)", linkToken])
            }
            try old.close()
        }
        try await TestBackend.with(databasePath: path) { backend in
            #expect(Self.secret(backend.running) == legacyKey)
            // The admin outbox still reads both messages.
            let outbox = try await backend.outbox()
            #expect(outbox.map(\.code) == ["402913", nil])
            #expect(outbox.map(\.token) == [nil, linkToken])
            let stored = try await backend.running.store.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT code, link, token, sealed FROM outbox")
                    .map {
                        [$0["code"] as String?, $0["link"], $0["token"]] + [
                            ($0["sealed"] as Data?) == nil ? nil : "sealed"
                        ]
                    }
            }
            #expect(stored == [[nil, nil, nil, "sealed"], [nil, nil, nil, "sealed"]])
        }
        #expect(FileManager.default.contents(atPath: path + ".key") == legacyKey)
        #expect(Self.mode(path + ".key") == 0o600)
        for suffix in ["", "-wal"] {
            let bytes = FileManager.default.contents(atPath: path + suffix) ?? Data()
            #expect(bytes.range(of: legacyKey) == nil, "key in \(suffix)")
            #expect(bytes.range(of: Data(linkToken.utf8)) == nil, "link token in \(suffix)")
        }
    }

    @Test func theSecretIsMadeOncePerDatabaseAndKept() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString).sqlite")
            .path
        defer { Self.remove(path) }
        let first = try await TestBackend.with(databasePath: path) { backend in
            let secret = Self.secret(backend.running)
            // A scenario load wipes the world but not the secret.
            _ = try await backend.post("/_admin/scenario", LoadScenarioBody(name: "phone-only"))
            #expect(Self.secret(backend.running) == secret)
            return secret
        }
        let again = try await TestBackend.with(databasePath: path) { Self.secret($0.running) }
        #expect(first == again)
        let other = try await TestBackend.with { Self.secret($0.running) }
        #expect(other != first)
    }

    @Test func databaseFilesAreOwnerOnly() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("modes-\(UUID().uuidString).sqlite")
            .path
        defer { Self.remove(path) }
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
