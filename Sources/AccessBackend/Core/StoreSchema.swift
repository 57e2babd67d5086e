import Crypto
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The schema every migration of `Store.migrator` makes, as one script. A temporary database (the app's
/// embedded backend, every start) gets it in one transaction instead of running the chain: each migration is
/// a transaction of its own with a foreign key check and a fresh read of the schema, and the chain was most
/// of the backend's start (issue 34 item 1). A `--db` file still goes through the migrator, and the
/// migrator runs after this script too, so a migration added after it was made still runs.
/// StoreSchemaTests checks that both ways give the same schema, and rewrites this file when run with
/// ACCESSDECK_RECORD_SCHEMA=1 after a migration is added.
enum StoreSchema {
    /// Runs the script on an empty database, in one transaction.
    static func apply(to pool: DatabasePool) throws {
        try pool.write { db in try db.execute(sql: script) }
    }

    /// A database file holding just the script, WAL already on, made once per script in the temporary databases'
    /// private directory and copied for each of them: SQLite parsing and running the script's statements was some
    /// 20 M instructions of every start (issue 34 item 1), a copy of the file almost nothing. Returns false when
    /// no copy could be made (then the caller applies the script itself).
    static func copyTemplate(to path: String, directory: String) -> Bool {
        let template = directory + "/" + templateName
        if access(template, R_OK) != 0 {
            do {
                try makeTemplate(at: template, directory: directory)
            } catch {
                return false
            }
        }
        return PrivateFiles.copy(template, to: path)
    }

    private static let templatePrefix = "schema-"

    /// Named by the script's digest: another script (a new migration) gets another file, never a stale one.
    static let templateName = templatePrefix + Secrets.hex(SHA256.hash(data: Data(script.utf8)).prefix(8)) + ".sqlite"

    /// Built under a temporary database's name, so a process that dies half-way leaves a file the sweep removes,
    /// then renamed into place whole: a second process starting meanwhile copies either nothing or all of it.
    private static func makeTemplate(at template: String, directory: String) throws {
        let building =
            directory + "/\(TemporaryDatabase.filePrefix)\(getpid())-\(UUID().uuidString.lowercased()).sqlite"
        do {
            try PrivateFiles.prepareDatabase(at: building)
            let queue = try DatabaseQueue(path: building)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try queue.write { db in try db.execute(sql: script) }
            // The last connection's close checkpoints the WAL into the file and removes -wal and -shm.
            try queue.close()
            guard rename(building, template) == 0 else {
                throw StoreError("cannot rename the schema template: \(String(cString: strerror(errno)))")
            }
        } catch {
            for suffix in ["", "-wal", "-shm"] { unlink(building + suffix) }
            throw error
        }
        removeOtherTemplates(in: directory)
    }

    /// Each schema change leaves a template of the script before it. A new one is made once per change, so that
    /// is when the old ones go: a process of another build copying one meanwhile keeps its open file, and one
    /// starting later makes its own again.
    private static func removeOtherTemplates(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(templatePrefix) && name.hasSuffix(".sqlite") && name != templateName {
            unlink(directory + "/" + name)
        }
    }

    /// The script that makes `db`'s schema again: its tables, then its indexes, in the order they were made,
    /// and the migrations it records as applied.
    static func script(of db: Database) throws -> String {
        let statements = try String.fetchAll(
            db,
            sql: """
                SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
                ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid
                """)
        let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        let inserts = applied.map { "INSERT INTO grdb_migrations VALUES ('\($0)')" }
        return (statements + inserts).joined(separator: ";\n") + ";"
    }
}
