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

    // MARK: Item 3: deleting a world

    /// `DELETE /w/a/_admin/worlds/a` is answered at once (it waited a minute for itself, past the client's
    /// 30 s), and the name's next request waits for the close and gets a fresh world, never the 500 of a file
    /// still held, round after round within `--max-worlds 1`.
    @Test func aWorldDeletingItselfIsAnsweredAtOnceAndItsNameComesBackFresh() async throws {
        let directory = WorldsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = WorldsTests.configuration(dataDirectory: directory, limits: .init(maxWorlds: 1))
        try await TestBackend.with(configuration: configuration) { backend in
            let a = InWorld(backend: backend, name: "a")
            for round in 0..<3 {
                _ = try await a.post("/_admin/clock/advance", ClockAdvanceBody(seconds: 600))
                let moved = try await a.clock()
                let deleted = try await a.send(.DELETE, "/_admin/worlds/a")
                #expect(deleted.status == 204, "round \(round): \(String(decoding: deleted.data, as: UTF8.self))")
                let state = try await a.get("/_admin/state")
                #expect(state.status == 200, "round \(round): \(String(decoding: state.data, as: UTF8.self))")
                // A world afresh: the moved clock went with the deleted one.
                #expect(try await a.clock() != moved, "round \(round)")
            }
        }
    }

    /// While a deleted world waits for a request in flight (held by a `timeout` fault) it still holds its
    /// database: it counts toward `--max-worlds`, and a request for its name waits for the close instead of
    /// opening its file again (a 500 with `--data-dir`).
    @Test func aWorldBeingClosedCountsUntilItIsClosed() async throws {
        let directory = WorldsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = WorldsTests.configuration(dataDirectory: directory, limits: .init(maxWorlds: 1))
        try await TestBackend.with(configuration: configuration) { backend in
            let a = InWorld(backend: backend, name: "a")
            let timeout = Components.Schemas.EndpointFault(path: "/health", kind: .timeout)
            #expect(try await a.post("/_admin/faults", FaultSettings(endpoints: [timeout])).status == 200)
            var held: RawHTTP.Connection? = try await RawHTTP.Connection(port: backend.running.port)
            await held?.send("GET /w/a/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let worlds = backend.running.worlds
            _ = try await Probe.eventually { worlds.requestsInFlight("a") == 1 ? true : nil }

            let deleting = Task { try await backend.send(.DELETE, "/_admin/worlds/a") }
            // Taken out of the open worlds: being closed, waiting for the held request.
            _ = try await Probe.eventually { worlds.requestsInFlight("a") == nil ? true : nil }
            let other = try await backend.get("/w/b/health")
            #expect(other.status == 409, "\(String(decoding: other.data, as: UTF8.self))")
            #expect(other.error?.code == "world_limit")
            #expect(!(try await Self.names(backend)).contains("b"))

            let again = Task { try await a.get("/_admin/faults") }
            // The client gives up: the held request ends, and the close with it.
            withExtendedLifetime(held) {}
            held = nil
            #expect(try await deleting.value.status == 204)
            let reopened = try await again.value
            #expect(reopened.status == 200, "\(String(decoding: reopened.data, as: UTF8.self))")
            // A world afresh: the fault went with the deleted one.
            #expect(try reopened.decode(FaultSettings.self).endpoints?.isEmpty ?? true)
        }
    }

    // MARK: Item 4: who makes a world

    /// A request the new world would refuse anyway makes none: 415, 404, 405, and a browser's `Origin` on any
    /// method, a no-cors GET included. An open world still answers such a GET, as the bare paths do.
    @Test func onlyARequestTheWorldWouldAnswerMakesIt() async throws {
        try await TestBackend.with { backend in
            let plain = try await backend.send(
                .POST, "/w/plain/auth/register", raw: Data("{}".utf8), contentType: "text/plain")
            #expect(plain.status == 415)
            #expect(plain.error?.code == "unsupported_media_type")
            let nowhere = try await backend.get("/w/nowhere/nowhere")
            #expect(nowhere.status == 404)
            #expect(nowhere.error?.code == "not_found")
            let method = try await backend.send(.DELETE, "/w/method/health")
            #expect(method.status == 405)
            #expect(method.error?.code == "method_not_allowed")
            let page = try await backend.send(.GET, "/w/page/health", headers: [("Origin", "https://evil.example")])
            #expect(page.status == 403)
            #expect(page.error?.code == "origin_not_allowed")
            #expect(try await Self.names(backend) == ["default"])

            #expect(try await backend.get("/w/open/health").status == 200)
            let read = try await backend.send(.GET, "/w/open/health", headers: [("Origin", "https://evil.example")])
            #expect(read.status == 200)
            #expect(try await Self.names(backend) == ["default", "open"])
        }
    }

    /// An admin request without the admin token is 401 and makes no world.
    @Test func anAdminRequestWithoutTheTokenMakesNoWorld() async throws {
        let token = "a-token-long-enough-for-the-server"
        var configuration = TestBackend.configuration()
        configuration.admin = .token(token)
        try await TestBackend.with(configuration: configuration) { backend in
            let refused = try await backend.get("/w/nosy/_admin/outbox")
            #expect(refused.status == 401)
            #expect(refused.error?.code == "admin_token_required")
            #expect(try await Self.names(backend, adminToken: token) == ["default"])
        }
    }

    /// `--max-kept-worlds 2`: of four closed worlds the two used last keep their files; the others go, the
    /// one unused longest first, and a restart with a smaller bound removes more the same way.
    @Test func closedWorldsKeepAtMostTheirFilesTheOneUnusedLongestGoingFirst() async throws {
        let directory = WorldsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = BackendClock(frozen: true)
        func configuration(keeping kept: Int) -> ReferenceBackend.Configuration {
            WorldsTests.configuration(
                dataDirectory: directory, limits: .init(maxWorlds: 10, idleMinutes: 1, maxKeptWorlds: kept),
                clock: clock)
        }
        func stored() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        }
        try await TestBackend.with(configuration: configuration(keeping: 2)) { backend in
            for name in ["a", "b", "c", "d"] {
                #expect(try await backend.get("/w/\(name)/health").status == 200)
                clock.advance(by: 1)
            }
            // a, used again, is now the one used last; b the one unused longest.
            #expect(try await backend.get("/w/a/health").status == 200)
            clock.advance(by: 60)
            let listed = try await WorldsTests.worlds(backend)
            #expect(listed.map(\.name) == ["a", "d", "default"])
            #expect(listed.filter { $0.name != "default" }.allSatisfy { !$0.open && $0.kept })
        }
        #expect(stored().filter { $0.hasPrefix("b.") || $0.hasPrefix("c.") }.isEmpty, "\(stored())")
        try await TestBackend.with(configuration: configuration(keeping: 1)) { backend in
            let listed = try await WorldsTests.worlds(backend)
            #expect(listed.map(\.name) == ["a", "default"])
        }
        #expect(stored().filter { $0.hasPrefix("d.") }.isEmpty, "\(stored())")
        #expect(stored().contains("a.sqlite"))
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
