import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// A temporary database gets its schema from `StoreSchema.script`, a `--db` file from the migration chain:
/// both must end the same, table by table, column by column, index by index, with the same migrations
/// recorded as applied (so a `--db` file made either way migrates alike later).
@Suite struct StoreSchemaTests {
    /// Every table, index and the migrations applied, as SQLite keeps them.
    private static func schema(_ store: Store) throws -> [String] {
        try store.pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || sql FROM sqlite_master
                    WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name
                    """)
                + String.fetchAll(db, sql: "SELECT 'migration ' || identifier FROM grdb_migrations ORDER BY rowid")
        }
    }

    private static func withFileStore(_ body: (Store) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store.open(path: directory.appendingPathComponent("state.sqlite").path)
        defer { try? store.pool.close() }
        try body(store)
    }

    @Test func theScriptAndTheMigrationsMakeTheSameSchema() throws {
        let temporary = try Store.open(path: nil)
        defer { temporary.removeIfTemporary() }
        #expect(temporary.isTemporary)
        let fromScript = try Self.schema(temporary)
        try Self.withFileStore { migrated in
            let fromMigrations = try Self.schema(migrated)
            #expect(fromScript == fromMigrations)
            // Not an empty comparison: the newest migration's column and every migration are there.
            #expect(fromScript.contains { $0.hasPrefix("table users ON users:") && $0.contains("display_name") })
            #expect(
                fromScript.filter { $0.hasPrefix("migration ") }
                    == Store.migrator(sealer: nil).migrations.map { "migration \($0)" })
        }
    }

    /// A private directory of the test's own: the shared one's template may be made or replaced by any
    /// process starting meanwhile.
    private static func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("template-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    /// Every table and index of the file at `path`, and the migrations it records.
    private static func schema(atPath path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT type || ' ' || name || ': ' || sql FROM sqlite_master
                    WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name
                    """)
                + String.fetchAll(db, sql: "SELECT 'migration ' || identifier FROM grdb_migrations ORDER BY rowid")
        }
    }

    /// A temporary database starts as a copy of a template made once per script (issue 34 item 1): the first
    /// copy makes the template, owner-only like the copy, both holding exactly the script's schema.
    @Test func theFirstTemporaryDatabaseMakesTheTemplateOfTheScript() throws {
        try Self.withDirectory { directory in
            let applied = directory + "/applied.sqlite"
            let queue = try DatabaseQueue(path: applied)
            try queue.write { db in try db.execute(sql: StoreSchema.script) }
            try queue.close()

            let copy = directory + "/db-1-copy.sqlite"
            #expect(StoreSchema.copyTemplate(to: copy, directory: directory))
            let template = directory + "/" + StoreSchema.templateName
            #expect(FileManager.default.fileExists(atPath: template))
            #expect(try Self.schema(atPath: copy) == Self.schema(atPath: applied))
            #expect(try Self.schema(atPath: template) == Self.schema(atPath: applied))
            for path in [copy, template] {
                let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(path)")
            }
            // Only the template and the copy: the file it was built under was renamed, its WAL checkpointed.
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                    == ["applied.sqlite", "db-1-copy.sqlite", StoreSchema.templateName].sorted())
        }
    }

    /// Making a template removes those of other scripts (each schema change left one behind), and nothing else.
    @Test func makingATemplateRemovesTheTemplatesOfOtherScripts() throws {
        try Self.withDirectory { directory in
            for name in ["schema-0123456789abcdef.sqlite", "schema-notes.txt", "db-1-other.sqlite"] {
                #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("x".utf8)))
            }
            #expect(StoreSchema.copyTemplate(to: directory + "/db-1-copy.sqlite", directory: directory))
            let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            let kept = ["db-1-copy.sqlite", "db-1-other.sqlite", "schema-notes.txt", StoreSchema.templateName]
            #expect(left == kept.sorted())
        }
    }

    /// A template already there is copied, not made again: one planted with a table of its own shows up in
    /// the copy.
    @Test func aTemporaryDatabaseIsACopyOfTheTemplateThere() throws {
        try Self.withDirectory { directory in
            let template = directory + "/" + StoreSchema.templateName
            let queue = try DatabaseQueue(path: template)
            try queue.write { db in
                try db.execute(sql: StoreSchema.script)
                try db.execute(sql: "CREATE TABLE planted (id INTEGER)")
            }
            try queue.close()

            let copy = directory + "/db-1-copy.sqlite"
            #expect(StoreSchema.copyTemplate(to: copy, directory: directory))
            #expect(try Self.schema(atPath: copy).contains("table planted: CREATE TABLE planted (id INTEGER)"))
        }
    }

    /// No template and no way to make one (the directory is gone): no copy, and the caller applies the script.
    @Test func withoutATemplateThereIsNoCopy() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)").path
        #expect(!StoreSchema.copyTemplate(to: missing + "/db-1-copy.sqlite", directory: missing))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// The script is what `StoreSchema.script(of:)` makes of a migrated database, word for word. After a new
    /// migration, `ACCESSDECK_RECORD_SCHEMA=1 swift test --filter StoreSchemaTests` rewrites it.
    @Test func theScriptIsTheMigratedSchema() throws {
        try Self.withFileStore { migrated in
            let expected = try migrated.pool.read { db in try StoreSchema.script(of: db) }
            if ProcessInfo.processInfo.environment["ACCESSDECK_RECORD_SCHEMA"] == "1", expected != StoreSchema.script {
                try Self.record(expected)
            }
            #expect(StoreSchema.script == expected, "ACCESSDECK_RECORD_SCHEMA=1 swift test --filter StoreSchemaTests")
        }
    }

    private static func record(_ script: String) throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/AccessBackend/Core/StoreSchema+Script.swift").standardized
        let body = script.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
        let text = """
            // Generated by StoreSchemaTests (ACCESSDECK_RECORD_SCHEMA=1 swift test --filter StoreSchemaTests) from the
            // schema `Store.migrator` makes on an empty database: do not edit by hand.

            extension StoreSchema {
                static let script = #\"\"\"
            \(body)
                    \"\"\"#
            }

            """
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
}
