import GRDB

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
