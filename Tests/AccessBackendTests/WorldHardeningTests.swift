import AccessAPI
import AccessBackendTesting
import Foundation
import GRDB
import NIOHTTP1
import Testing

@testable import AccessBackend

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 45 items 2, 3, 4 and 8: an uploaded world file brings rows and nothing else; a world deleting itself is
/// answered at once and counts until it is closed; only a request its world would answer makes one; closed
/// worlds' files are bounded; and the data directory and a database's -wal and -shm are never reached
/// through a planted link.
@Suite struct WorldHardeningTests {
    typealias InWorld = WorldsTests.InWorld

    private static func upload(_ backend: TestBackend, _ name: String, _ file: Data) async throws -> Reply {
        try await backend.send(
            .POST, "/_admin/worlds?name=\(name)", raw: file, contentType: "application/vnd.sqlite3")
    }

    /// `file` as a database in `directory`, changed by `change`, read back.
    private static func changed(
        _ file: Data, in directory: String, _ change: (Database) throws -> Void
    ) throws -> Data {
        let path = directory + "/\(UUID().uuidString).sqlite"
        try file.write(to: URL(fileURLWithPath: path))
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try change(db) }
        try queue.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private static func names(_ backend: TestBackend, adminToken: String? = nil) async throws -> [String] {
        let headers = adminToken.map { [(ReferenceBackend.adminTokenHeader, $0)] } ?? []
        return try await backend.send(.GET, "/_admin/worlds", headers: headers).decode([WorldSummary].self).map(\.name)
    }

    private static func mode(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o777
    }

    // MARK: Item 2: a world file is rows in the migrations' schema

    /// Each file differs from a real download by one schema object, or claims migrations its tables are not:
    /// each is 422 `world_file_invalid` and leaves nothing behind, while the real file still uploads.
    @Test func aWorldFileWithAnythingButItsMigrationsSchemaIsRefused() async throws {
        try await TestBackend.with { backend in
            let good = try await backend.get("/_admin/worlds/default/file").data
            let directory = WorldsTests.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let changes: [(String, (Database) throws -> Void)] = [
                (
                    "a trigger",
                    {
                        try $0.execute(
                            sql: """
                                CREATE TRIGGER every_sign_in_aal2 AFTER INSERT ON sessions BEGIN
                                UPDATE sessions SET assurance = 'aal2' WHERE access_hash = NEW.access_hash; END
                                """)
                    }
                ),
                ("a view", { try $0.execute(sql: "CREATE VIEW everyone AS SELECT * FROM users") }),
                ("an extra table", { try $0.execute(sql: "CREATE TABLE extra (x)") }),
                ("an extra index", { try $0.execute(sql: "CREATE INDEX users_role ON users(role)") }),
                (
                    "an altered column",
                    { try $0.execute(sql: "ALTER TABLE users RENAME COLUMN display_name TO nickname") }
                ),
                ("a missing table", { try $0.execute(sql: "DROP TABLE recovery_codes") }),
                (
                    "a migration missing from the middle",
                    { try $0.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v5-rule-indexes'") }
                ),
            ]
            for (index, (what, change)) in changes.enumerated() {
                let reply = try await Self.upload(
                    backend, "x-\(index)", try Self.changed(good, in: directory, change))
                #expect(reply.status == 422, "\(what): \(String(decoding: reply.data, as: UTF8.self))")
                #expect(reply.error?.code == "world_file_invalid", "\(what)")
            }

            // A migrations table that claims every migration, over none of their tables: was a 500.
            let fake = directory + "/fake.sqlite"
            try await DatabaseQueue(path: fake).write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                        """)
                for identifier in Store.migrator(sealer: nil).migrations {
                    try db.execute(sql: "INSERT INTO grdb_migrations VALUES (?)", arguments: [identifier])
                }
            }
            let claimed = try await Self.upload(
                backend, "claimed", try Data(contentsOf: URL(fileURLWithPath: fake)))
            #expect(claimed.status == 422, "\(String(decoding: claimed.data, as: UTF8.self))")
            #expect(claimed.error?.code == "world_file_invalid")

            #expect(try await Self.names(backend) == ["default"])
            // A real download still goes round.
            #expect(try await Self.upload(backend, "x", good).status == 201)
            #expect(try await InWorld(backend: backend, name: "x").state().scenario == "default")
        }
    }

    /// A file made by only the first migrations (an older AccessDeck's) has the schema those make: taken, and
    /// brought up to date as it opens.
    @Test func aWorldFileFromAnOlderAccessDeckIsStillTaken() async throws {
        let directory = WorldsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/older.sqlite"
        let queue = try DatabaseQueue(path: path)
        try Store.migrator(sealer: nil).migrate(queue, upTo: Store.lastMigrationWithoutKey)
        try queue.close()
        try await TestBackend.with { backend in
            let reply = try await Self.upload(backend, "older", try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(reply.status == 201, "\(String(decoding: reply.data, as: UTF8.self))")
            #expect(try await InWorld(backend: backend, name: "older").get("/_admin/state").status == 200)
        }
    }

    // MARK: Item 8: links in the data directory

    /// A `-wal` and a `-shm` planted as links to another file: that file keeps its mode, while the database
    /// itself is still made 0600.
    @Test func aPlantedLinkBesideADatabaseIsNotFollowed() throws {
        let directory = WorldsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        let database = directory + "/w.sqlite"
        for path in [victim, database] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
            #expect(chmod(path, 0o644) == 0)
        }
        for suffix in ["-wal", "-shm"] { #expect(symlink(victim, database + suffix) == 0) }
        PrivateFiles.restrictDatabase(at: database)
        #expect(Self.mode(victim) == 0o644)
        #expect(Self.mode(database) == 0o600)
    }

    /// An existing `--data-dir` open to others is tightened to 0700; one that is a symbolic link is refused,
    /// saying so, and the directory it points to is left as it was.
    @Test func anExistingDataDirectoryIsTightenedAndALinkedOneRefused() async throws {
        let parent = WorldsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let open = parent + "/open"
        #expect(mkdir(open, 0o755) == 0)
        #expect(chmod(open, 0o755) == 0)
        try await TestBackend.with(configuration: WorldsTests.configuration(dataDirectory: open)) { backend in
            let made = try await backend.get("/w/a/health")
            #expect(made.status == 200)
        }
        #expect(Self.mode(open) == 0o700)

        let real = parent + "/real"
        #expect(mkdir(real, 0o755) == 0)
        #expect(chmod(real, 0o755) == 0)
        let linked = parent + "/linked"
        #expect(symlink(real, linked) == 0)
        for given in [linked, linked + "/"] {
            let error = await #expect(throws: ReferenceBackend.ConfigurationError.self) {
                try await TestBackend.with(configuration: WorldsTests.configuration(dataDirectory: given)) { _ in }
            }
            #expect(error?.description.contains("symbolic link") == true, "\(given): \(String(describing: error))")
        }
        #expect(Self.mode(real) == 0o755)
    }
}
