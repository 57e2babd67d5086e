import Foundation
import GRDB

/// The SQLite database (WAL) holding every piece of backend state but the clock, faults and journal.
/// Times are stored as Unix seconds (REAL) so rules compare them with plain SQL.
struct Store: Sendable {
    let pool: DatabasePool
    let path: String
    let isTemporary: Bool

    static func open(path: String?) throws -> Store {
        let resolved: String
        let temporary: Bool
        if let path {
            resolved = path
            temporary = false
        } else {
            let name = "accessdeck-\(UUID().uuidString).sqlite"
            resolved = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
            temporary = true
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: resolved, configuration: configuration)
        try migrator.migrate(pool)
        return Store(pool: pool, path: resolved, isTemporary: temporary)
    }

    func removeIfTemporary() {
        guard isTemporary else { return }
        try? pool.close()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE users (
                        id TEXT PRIMARY KEY, role TEXT NOT NULL, is_primary INTEGER NOT NULL DEFAULT 0,
                        phone TEXT UNIQUE, email TEXT UNIQUE COLLATE NOCASE,
                        password_hash TEXT, password_salt TEXT, password_changed_at REAL,
                        apple_subject TEXT UNIQUE, google_subject TEXT UNIQUE);
                    CREATE TABLE sessions (
                        access_hash TEXT PRIMARY KEY, refresh_hash TEXT NOT NULL UNIQUE,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        access_expires_at REAL NOT NULL, refresh_expires_at REAL NOT NULL,
                        revoked INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE otp_requests (
                        id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        phone TEXT NOT NULL, purpose TEXT NOT NULL, code_hash TEXT NOT NULL,
                        created_at REAL NOT NULL, expires_at REAL NOT NULL, resend_after REAL NOT NULL,
                        wrong_attempts INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL CHECK (state IN ('open', 'dead', 'used', 'cancelled')));
                    CREATE TABLE otp_sends (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, phone TEXT NOT NULL, sent_at REAL NOT NULL,
                        is_resend INTEGER NOT NULL);
                    CREATE INDEX otp_sends_phone ON otp_sends(phone, sent_at);
                    CREATE TABLE test_codes (phone TEXT PRIMARY KEY, code TEXT NOT NULL);
                    CREATE TABLE reauth_grants (
                        token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        method TEXT NOT NULL, expires_at REAL NOT NULL);
                    CREATE TABLE links (
                        token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        purpose TEXT NOT NULL, expires_at REAL NOT NULL, used INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE provider_tokens (
                        token_hash TEXT PRIMARY KEY, provider TEXT NOT NULL, subject TEXT NOT NULL,
                        expires_at REAL NOT NULL, used INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE outbox (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, recipient TEXT NOT NULL,
                        kind TEXT NOT NULL, purpose TEXT NOT NULL, code TEXT, link TEXT, token TEXT,
                        sent_at REAL NOT NULL);
                    """)
        }
        migrator.registerMigration("v2-password-failures") { db in
            try db.execute(
                sql: """
                    CREATE TABLE password_failures (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, failed_at REAL NOT NULL);
                    CREATE INDEX password_failures_user ON password_failures(user_id, failed_at);
                    """)
        }
        return migrator
    }
}

extension Date {
    var unix: Double { timeIntervalSince1970 }
    init(unix: Double) { self.init(timeIntervalSince1970: unix) }
}
