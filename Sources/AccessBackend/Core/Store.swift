import AccessCore
import Crypto
import Foundation
import GRDB

/// The SQLite database (WAL) holding every piece of backend state; the clock, faults and journal live in
/// memory and are saved here only with `--db FILE` (`StateSaver`).
/// Times are stored as Unix seconds (REAL) so rules compare them with plain SQL.
/// A class: every service is made with the store, once or more a request, and copying a struct of a dozen
/// references was a dozen reference counts each time (issue 34 item 2).
final class Store: Sendable {
    let pool: DatabasePool
    let path: String
    let isTemporary: Bool
    /// Kept out of the database (`StoreKey`): what its digests are keyed with and its outbox sealed with.
    let key: StoreKey
    /// Keyed with the store's key, so a copied database file alone does not let anyone brute-force its
    /// stored codes offline.
    let digest: TokenDigest
    /// What the outbox's codes, links and tokens are sealed with.
    let outboxSealer: Sealer
    /// What a refreshed pair is sealed with for its reuse interval.
    let refreshSealer: Sealer
    /// What an authenticator's secret is sealed with (`TwoFactorService`).
    let twoFactorSealer: Sealer
    /// What a scenario's passkey on this device is sealed with until the app takes it (`DevicePasskeyService`).
    let devicePasskeySealer: Sealer
    let retention = RetentionService()
    /// Bearer lookups, kept until the next commit (see `SessionLookupCache`).
    let sessionCache = SessionLookupCache()
    let lastSeen = LastSeenThrottle()
    private init(pool: DatabasePool, path: String, isTemporary: Bool, key: StoreKey) {
        self.pool = pool
        self.path = path
        self.isTemporary = isTemporary
        self.key = key
        digest = key.digest
        outboxSealer = key.outboxSealer
        refreshSealer = key.refreshSealer
        twoFactorSealer = key.twoFactorSealer
        devicePasskeySealer = key.devicePasskeySealer
    }

    static func open(path: String?) throws -> Store {
        let resolved: String
        let temporary: Bool
        if let path {
            resolved = path
            temporary = false
        } else {
            resolved = try TemporaryDatabase.makePath()
            temporary = true
        }
        let fromTemplate =
            temporary
            && StoreSchema.copyTemplate(
                to: resolved, directory: resolved.lastIndex(of: "/").map { String(resolved[..<$0]) } ?? ".")
        // Accounts and digests live here: readable by the owner only. SQLite gives its -wal and -shm files
        // the main file's mode, so creating that one 0600 first covers all three.
        try PrivateFiles.prepareDatabase(at: resolved)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        if temporary {
            // Deleted at exit, so nothing in it needs to survive a crash: without this, creating the file and
            // switching it to WAL waited on about six fsyncs, tens of ms of the app's start on a busy disk.
            // GRDB then sets WAL's usual NORMAL, under which commits do not wait on the disk either.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
        }
        let pool = try DatabasePool(path: resolved, configuration: configuration)
        let key: StoreKey
        if temporary {
            // Empty, so nothing from before to seal or zero: the schema from the template or in one script instead
            // of the migration chain (`StoreSchema`). The migrator still runs after it, and finds nothing left to do.
            if !fromTemplate { try StoreSchema.apply(to: pool) }
            key = StoreKey.temporary()
            try migrator(sealer: key.outboxSealer).migrate(pool)
        } else {
            // A database from before held its key and plain outbox secrets: while they are moved out and sealed,
            // what is deleted or overwritten is zeroed (secure_delete), and the WAL that saw them is emptied.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
            try migrateUntilTheKeyIsNeeded(pool)
            key = try StoreKey.load(pool, keyFile: resolved + keyFileSuffix)
            try migrator(sealer: key.outboxSealer).migrate(pool)
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA secure_delete = OFF")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        try PrivateFiles.restrictDatabase(at: resolved)
        let store = Store(pool: pool, path: resolved, isTemporary: temporary, key: key)
        store.sessionCache.watch(pool)
        return store
    }

    /// Beside the database: `state.sqlite` → `state.sqlite.key`.
    static let keyFileSuffix = ".key"

    func removeIfTemporary() {
        guard isTemporary else { return }
        try? pool.close()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// The migrations before the key left the database: `StoreKey.load` reads what they made, and the
    /// ones after need the key.
    static let lastMigrationWithoutKey = "v13-saved-state"

    /// Up to `lastMigrationWithoutKey`, unless the database is already past it (GRDB stops the process on
    /// a `migrate(upTo:)` behind the database).
    private static func migrateUntilTheKeyIsNeeded(_ pool: DatabasePool) throws {
        let migrator = migrator(sealer: nil)
        guard let last = migrator.migrations.firstIndex(of: lastMigrationWithoutKey) else { return }
        let applied = try pool.read { try migrator.appliedIdentifiers($0) }
        if applied.isDisjoint(with: migrator.migrations[(last + 1)...]) {
            try migrator.migrate(pool, upTo: lastMigrationWithoutKey)
        }
    }

    /// `sealer`: needed only by the migrations after `lastMigrationWithoutKey`.
    static func migrator(sealer: Sealer?) -> DatabaseMigrator {
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
        // Codes and tokens become HMACs keyed by a per-database secret. Hashes made the old way can never
        // match again, so the short-lived rows holding them go: open codes, links and sessions end once.
        migrator.registerMigration("v3-keyed-hashes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
                    DELETE FROM sessions;
                    DELETE FROM otp_requests;
                    DELETE FROM reauth_grants;
                    DELETE FROM links;
                    DELETE FROM provider_tokens;
                    """)
        }
        // Emails are limited like texts, so sends are kept per recipient of either channel.
        migrator.registerMigration("v4-sends") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sends (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, recipient TEXT NOT NULL,
                        sent_at REAL NOT NULL, is_resend INTEGER NOT NULL);
                    INSERT INTO sends (channel, recipient, sent_at, is_resend)
                        SELECT 'sms', phone, sent_at, is_resend FROM otp_sends ORDER BY id;
                    DROP TABLE otp_sends;
                    CREATE INDEX sends_recipient ON sends(recipient, sent_at);
                    CREATE INDEX sends_sent_at ON sends(sent_at);
                    """)
        }
        // What the rules query and what `RetentionService` prunes by: without these, request-otp scanned
        // every code ever sent and slowed down as the table grew (issue 11, defect 7).
        migrator.registerMigration("v5-rule-indexes") { db in
            try db.execute(
                sql: """
                    CREATE INDEX otp_requests_live ON otp_requests(user_id, phone, state);
                    CREATE INDEX otp_requests_expires ON otp_requests(expires_at);
                    CREATE INDEX sessions_refresh_expires ON sessions(refresh_expires_at);
                    CREATE INDEX reauth_grants_expires ON reauth_grants(expires_at);
                    CREATE INDEX links_user ON links(user_id, purpose, expires_at);
                    CREATE INDEX links_expires ON links(expires_at);
                    CREATE INDEX provider_tokens_expires ON provider_tokens(expires_at);
                    CREATE INDEX password_failures_failed_at ON password_failures(failed_at);
                    """)
        }
        // A texted code names its request, so the outbox can tell a used, replaced or expired code from a live one.
        migrator.registerMigration("v6-outbox-requests") { db in
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN request_id TEXT")
        }
        // Email change and add links carry what they apply; a revert link carries the address it restores.
        migrator.registerMigration("v7-email-links") { db in
            try db.execute(
                sql: """
                    ALTER TABLE links ADD COLUMN email TEXT;
                    ALTER TABLE links ADD COLUMN previous_email TEXT;
                    ALTER TABLE links ADD COLUMN password_hash TEXT;
                    """)
        }
        // Issue 13: provider links keep a grant (revoked on disconnect and delete); the delete flow's
        // blockers; deleted accounts, their scheduled purge and the 7-day hold on their phone and email.
        migrator.registerMigration("v8-providers-and-deletion") { db in
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN deleted_at REAL;
                    CREATE TABLE provider_grants (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        provider TEXT NOT NULL, subject TEXT NOT NULL,
                        linked_at REAL NOT NULL, revoked_at REAL);
                    CREATE INDEX provider_grants_user ON provider_grants(user_id, provider, revoked_at);
                    INSERT INTO provider_grants (user_id, provider, subject, linked_at)
                        SELECT id, 'apple', apple_subject, unixepoch() FROM users WHERE apple_subject IS NOT NULL;
                    INSERT INTO provider_grants (user_id, provider, subject, linked_at)
                        SELECT id, 'google', google_subject, unixepoch() FROM users WHERE google_subject IS NOT NULL;
                    CREATE TABLE device_accounts (
                        position INTEGER PRIMARY KEY AUTOINCREMENT, provider TEXT NOT NULL, subject TEXT NOT NULL,
                        email TEXT NOT NULL, name TEXT NOT NULL);
                    CREATE TABLE scheduled_items (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('session', 'booking')),
                        title TEXT NOT NULL, starts_at REAL NOT NULL);
                    CREATE INDEX scheduled_items_user ON scheduled_items(user_id, kind, starts_at);
                    CREATE TABLE payouts (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        currency TEXT NOT NULL, available_minor INTEGER NOT NULL, on_hold_minor INTEGER NOT NULL,
                        hold_releases_at REAL, next_automatic_payout_at REAL NOT NULL);
                    CREATE TABLE deletions (
                        user_id TEXT PRIMARY KEY, is_primary INTEGER NOT NULL,
                        deleted_at REAL NOT NULL, purge_at REAL NOT NULL, held_until REAL NOT NULL, purged_at REAL);
                    CREATE TABLE identity_holds (
                        identifier_hash TEXT PRIMARY KEY, held_until REAL NOT NULL);
                    """)
        }
        // Issue 14: a session belongs to a family (the sign-in its chain of rotations started from), and
        // each rotated refresh token's digest is kept while it would still have been valid, so presenting
        // it again is told apart from an unknown token and ends the whole family (reuse detection).
        // Sessions from before get a family of their own.
        migrator.registerMigration("v9-session-families") { db in
            try db.execute(
                sql: """
                    ALTER TABLE sessions ADD COLUMN family_id TEXT NOT NULL DEFAULT '';
                    UPDATE sessions SET family_id = access_hash;
                    CREATE INDEX sessions_family ON sessions(family_id);
                    CREATE TABLE spent_refresh_tokens (
                        refresh_hash TEXT PRIMARY KEY, family_id TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, expires_at REAL NOT NULL);
                    CREATE INDEX spent_refresh_tokens_expires ON spent_refresh_tokens(expires_at);
                    """)
        }
        // Issue 14's way in: sign-in codes sent before anyone is signed in (no user yet), the devices
        // sign-ins come from (seed 004) and the session each belongs to, addresses registered with a
        // password whose link was not opened yet, and the failed password logins of each address.
        migrator.registerMigration("v10-sign-in") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sign_in_challenges (
                        id TEXT PRIMARY KEY, channel TEXT NOT NULL CHECK (channel IN ('phone', 'email')),
                        destination TEXT NOT NULL, code_hash TEXT NOT NULL,
                        created_at REAL NOT NULL, expires_at REAL NOT NULL, resend_after REAL NOT NULL,
                        wrong_attempts INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL CHECK (state IN ('open', 'dead', 'used', 'superseded')));
                    CREATE INDEX sign_in_challenges_destination ON sign_in_challenges(destination, state);
                    CREATE TABLE devices (
                        id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        identifier TEXT NOT NULL, device_name TEXT NOT NULL, system_name TEXT NOT NULL,
                        system_version TEXT NOT NULL, public_key TEXT NOT NULL,
                        created_at REAL NOT NULL, last_seen_at REAL NOT NULL,
                        UNIQUE (user_id, identifier));
                    ALTER TABLE sessions ADD COLUMN device_id TEXT;
                    ALTER TABLE users ADD COLUMN email_unverified INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE login_failures (
                        email_key TEXT PRIMARY KEY, failures INTEGER NOT NULL, last_failed_at REAL NOT NULL,
                        locked_until REAL);
                    """)
        }
        // Issue 15's onboarding (seed 003): the username (stored lowercased, one per account), the photo
        // as given, and the first unfinished step. Every account from before onboarding is complete; an
        // account a sign-up creates starts at `profile`.
        migrator.registerMigration("v11-onboarding") { db in
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN username TEXT;
                    ALTER TABLE users ADD COLUMN photo TEXT;
                    ALTER TABLE users ADD COLUMN onboarding_step TEXT NOT NULL DEFAULT 'complete';
                    CREATE UNIQUE INDEX users_username ON users(username COLLATE NOCASE);
                    """)
        }
        // Issue 15's recovery (seed 003): a session recovered by email is limited until the phone is
        // re-verified, and every recovery request is logged; an unknown address only as its digest.
        migrator.registerMigration("v12-recovery") { db in
            try db.execute(
                sql: """
                    ALTER TABLE sessions ADD COLUMN access TEXT NOT NULL DEFAULT 'full';
                    CREATE TABLE recovery_requests (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, email_key TEXT NOT NULL, user_id TEXT,
                        ip TEXT, device_identifier TEXT NOT NULL, device_name TEXT NOT NULL,
                        requested_at REAL NOT NULL, link_sent INTEGER NOT NULL);
                    CREATE INDEX recovery_requests_email ON recovery_requests(email_key, requested_at);
                    """)
        }
        // Issue 16: with `--db FILE`, faults, the clock and the journal's newest entries outlive a restart
        // (`StateSaver`). A scenario load leaves them alone, as it leaves them in memory.
        migrator.registerMigration("v13-saved-state") { db in
            try db.execute(
                sql: """
                    CREATE TABLE saved_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE journal (id INTEGER PRIMARY KEY, entry TEXT NOT NULL);
                    """)
        }
        // Issue 25, defect 5: the outbox's codes, links and tokens are sealed with the store's key (the key
        // left the database in `StoreKey.load`), and the rows from before are sealed in place.
        migrator.registerMigration("v14-sealed-outbox") { db in
            guard let sealer else { throw StoreError("sealing the outbox needs the store's key") }
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN sealed BLOB")
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT id, code, link, token FROM outbox WHERE code IS NOT NULL OR link IS NOT NULL OR token IS NOT NULL"
            )
            for row in rows {
                let secrets = OutboxService.Secrets(code: row["code"], link: row["link"], token: row["token"])
                try db.execute(
                    sql: "UPDATE outbox SET sealed = ?, code = NULL, link = NULL, token = NULL WHERE id = ?",
                    arguments: [try secrets.sealed(with: sealer), row["id"] as Int64])
            }
        }
        // Issue 25, defect 12: a rotated refresh token presented again within the reuse interval gets the
        // pair its rotation issued, sealed here until the interval is over (RetentionService clears it).
        migrator.registerMigration("v15-refresh-reuse-interval") { db in
            try db.execute(
                sql: """
                    ALTER TABLE spent_refresh_tokens ADD COLUMN spent_at REAL;
                    ALTER TABLE spent_refresh_tokens ADD COLUMN successor_access_hash TEXT;
                    ALTER TABLE spent_refresh_tokens ADD COLUMN successor_sealed BLOB;
                    """)
        }
        // Issue 25, defect 2: each send names the client address and the signed-in account that asked, for
        // the caps across destinations (RateLimitService); recovery requests count by their logged IP.
        migrator.registerMigration("v16-send-caps") { db in
            try db.execute(
                sql: """
                    ALTER TABLE sends ADD COLUMN client_address TEXT;
                    ALTER TABLE sends ADD COLUMN account_id TEXT;
                    CREATE INDEX sends_client_address ON sends(client_address, sent_at);
                    CREATE INDEX sends_account ON sends(account_id, sent_at);
                    CREATE INDEX recovery_requests_ip ON recovery_requests(ip, requested_at);
                    CREATE INDEX recovery_requests_requested_at ON recovery_requests(requested_at);
                    """)
        }
        // Issue 28 items 3 and 4: a message keeps what became of its code or link (`OutboxService.endCode`,
        // `endLinks`), and a link's message names its token's digest, which finds it when the link stops working;
        // a link ended unopened says why (`links.ended`), so opening a replaced one says a newer one was sent.
        migrator.registerMigration("v17-outbox-outcomes") { db in
            try db.execute(
                sql: """
                    ALTER TABLE links ADD COLUMN ended TEXT;
                    ALTER TABLE outbox ADD COLUMN outcome TEXT;
                    ALTER TABLE outbox ADD COLUMN token_hash TEXT;
                    CREATE INDEX outbox_request ON outbox(request_id);
                    CREATE INDEX outbox_token_hash ON outbox(token_hash);
                    """)
        }
        // Issue 28 item 26: seed 004's optional display name, given with a sign-in code (`DisplayNameRules`).
        migrator.registerMigration("v18-display-name") { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN display_name TEXT")
        }
        // Issue 30: Active sessions. One row a sign-in (a refresh family): how it was made, when it was first and
        // last seen and from where. `sessions.revoked` now means "signed out from another device", kept so the
        // device's next call is told why; the rows it meant before (sessions from before sign-out deleted them)
        // are dropped.
        migrator.registerMigration("v19-sign-ins") { db in
            try db.execute(
                sql: """
                    DELETE FROM sessions WHERE revoked = 1;
                    CREATE TABLE sign_ins (
                        family_id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        device_id TEXT, method TEXT, created_at REAL NOT NULL, last_seen_at REAL NOT NULL,
                        client_address TEXT);
                    CREATE INDEX sign_ins_user ON sign_ins(user_id);
                    """)
        }
        // Two-factor (issue 31): the account's flag beside its other methods (read with every session), each
        // session's assurance level, the authenticator's sealed secret and last accepted step, a pending setup,
        // the recovery codes as keyed digests, and the wrong codes the account gave in a row.
        migrator.registerMigration("v20-two-factor") { db in
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN two_factor_enabled_at REAL;
                    ALTER TABLE sessions ADD COLUMN assurance TEXT NOT NULL DEFAULT 'aal1';
                    CREATE TABLE two_factor (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        secret_sealed BLOB NOT NULL, last_step INTEGER,
                        wrong_attempts INTEGER NOT NULL DEFAULT 0, locked_until REAL);
                    CREATE TABLE two_factor_setups (
                        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        secret_sealed BLOB NOT NULL, expires_at REAL NOT NULL,
                        wrong_attempts INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE recovery_codes (
                        code_hash TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, used_at REAL);
                    CREATE INDEX recovery_codes_user ON recovery_codes(user_id);
                    """)
        }
        // Issue 45 item 6: a re-auth grant belongs to the sign-in (the refresh family) that earned it and ends
        // with it (`ReauthService.require`). A grant from before names no sign-in, so it ends here; it had at
        // most 15 minutes left.
        migrator.registerMigration("v21-reauth-sign-ins") { db in
            try db.execute(
                sql: """
                    DELETE FROM reauth_grants;
                    ALTER TABLE reauth_grants ADD COLUMN family_id TEXT NOT NULL DEFAULT '';
                    """)
        }
        // Issue 46 item 1: one record for every 6-digit code (`CodeService`), its purpose a column. The phone codes
        // of signed-in accounts and the sign-in codes move over as they stand, under their ids (which their codes'
        // digests are bound to), so a live code of either still works and a used or replaced one still answers so.
        migrator.registerMigration("v22-code-challenges") { db in
            try db.execute(
                sql: """
                    CREATE TABLE code_challenges (
                        id TEXT PRIMARY KEY,
                        purpose TEXT NOT NULL
                            CHECK (purpose IN ('sign_in', 'change_phone', 'add_phone', 'reauth', 'reverify_phone')),
                        user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                        channel TEXT NOT NULL CHECK (channel IN ('phone', 'email')),
                        destination TEXT NOT NULL, code_hash TEXT NOT NULL,
                        created_at REAL NOT NULL, expires_at REAL NOT NULL, resend_after REAL NOT NULL,
                        wrong_attempts INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL CHECK (state IN ('open', 'dead', 'used', 'cancelled', 'superseded')),
                        CHECK ((purpose = 'sign_in') = (user_id IS NULL)));
                    INSERT INTO code_challenges (
                        id, purpose, user_id, channel, destination, code_hash, created_at, expires_at, resend_after,
                        wrong_attempts, state)
                    SELECT id, purpose, user_id, 'phone', phone, code_hash, created_at, expires_at, resend_after,
                        wrong_attempts, state FROM otp_requests;
                    INSERT INTO code_challenges (
                        id, purpose, user_id, channel, destination, code_hash, created_at, expires_at, resend_after,
                        wrong_attempts, state)
                    SELECT id, 'sign_in', NULL, channel, destination, code_hash, created_at, expires_at, resend_after,
                        wrong_attempts, state FROM sign_in_challenges;
                    DROP TABLE otp_requests;
                    DROP TABLE sign_in_challenges;
                    CREATE INDEX code_challenges_live ON code_challenges(destination, user_id, state);
                    CREATE INDEX code_challenges_expires ON code_challenges(expires_at);
                    """)
        }
        // Issue 49 items 1 and 3: the event log support reads as a person's timeline (`EventLog`). No foreign key: an
        // account's events outlive its deletion and purge, which are events themselves. Read by person and time.
        // And why each ended session ended, by its tokens' digests, while its refresh token would have lived, so
        // the device's next call is told (`SessionService.endedReason`).
        migrator.registerMigration("v23-events") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, kind TEXT NOT NULL,
                        user_id TEXT, subject TEXT, rule TEXT, family_id TEXT, device_id TEXT,
                        client_address TEXT, detail TEXT NOT NULL);
                    CREATE INDEX events_user ON events(user_id, at);
                    CREATE INDEX events_subject ON events(subject COLLATE NOCASE, at);
                    CREATE TABLE ended_sessions (
                        access_hash TEXT PRIMARY KEY, refresh_hash TEXT NOT NULL, reason TEXT NOT NULL,
                        expires_at REAL NOT NULL);
                    CREATE INDEX ended_sessions_refresh ON ended_sessions(refresh_hash);
                    CREATE INDEX ended_sessions_expires ON ended_sessions(expires_at);
                    """)
        }
        // Issue 53: passkeys (WebAuthn credentials) and the one-shot challenges of their ceremonies. An account's
        // count of passkeys that may sign in sits on its row, as its other methods do, so every rule that counts
        // sign-in methods (the last-method guards, Verify it's you) reads it with the user.
        migrator.registerMigration("v24-passkeys") { db in
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN live_passkeys INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE passkeys (
                        credential_id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        public_key BLOB NOT NULL, sign_count INTEGER NOT NULL, name TEXT NOT NULL,
                        created_at REAL NOT NULL, last_used_at REAL, device_name TEXT,
                        attestation_format TEXT NOT NULL, flagged_at REAL);
                    CREATE INDEX passkeys_user ON passkeys(user_id);
                    CREATE TABLE passkey_challenges (
                        id TEXT PRIMARY KEY, challenge BLOB NOT NULL,
                        purpose TEXT NOT NULL CHECK (purpose IN ('register', 'sign_in', 'reauth')),
                        user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                        expires_at REAL NOT NULL, used INTEGER NOT NULL DEFAULT 0);
                    CREATE INDEX passkey_challenges_expires ON passkey_challenges(expires_at);
                    """)
        }
        // Issue 49 item 4: a send a limit refused is an outbox row of its own, with which limit, until when, and
        // the refusal as it was shown (`OutboxService.keepRefused`).
        migrator.registerMigration("v25-outbox-refusals") { db in
            try db.execute(
                sql: """
                    ALTER TABLE outbox ADD COLUMN refused_limit TEXT;
                    ALTER TABLE outbox ADD COLUMN retry_at REAL;
                    ALTER TABLE outbox ADD COLUMN refusal TEXT;
                    """)
        }
        // Issue 53 item 3: a scenario's passkeys "on this device", whose private keys the app's authenticator takes
        // (`GET /_admin/device/passkeys`); sealed like a two-factor secret, as the world file may travel.
        migrator.registerMigration("v26-device-passkeys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device_passkeys (
                        credential_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, user_name TEXT NOT NULL,
                        private_key_sealed BLOB NOT NULL, sign_count INTEGER NOT NULL);
                    """)
        }
        return migrator
    }
}

extension Date {
    var unix: Double { timeIntervalSince1970 }
    init(unix: Double) { self.init(timeIntervalSince1970: unix) }
}
