import Crypto
import Foundation
import GRDB

/// The backend's one secret: the HMAC key of every stored code and token digest (`TokenDigest`) and,
/// derived from it, the keys that seal what the outbox keeps and a refreshed pair for its reuse interval
/// (`Sealer`). It never enters the database:
/// with `--db FILE` it is FILE.key beside it (0600, 32 random bytes, made on first use); without `--db`
/// it lives in memory only, as long as the process and its temporary database. So a copy of the
/// database alone gives no live code, link or token, and nothing to check a guessed code against.
struct StoreKey: Sendable {
    static let byteCount = 32

    let key: SymmetricKey

    var digest: TokenDigest { TokenDigest(key: key) }
    var outboxSealer: Sealer { Sealer(storeKey: key, purpose: "outbox") }
    /// Seals the pair a refresh issued, for its reuse interval (`RefreshRules.reuseInterval`).
    var refreshSealer: Sealer { Sealer(storeKey: key, purpose: "refresh") }
    /// Seals an authenticator's TOTP secret (issue 31): the backend must read it back to check codes.
    var twoFactorSealer: Sealer { Sealer(storeKey: key, purpose: "two-factor") }
    /// Seals the private key of a scenario's passkey on this device (issue 53) until the app takes it.
    var devicePasskeySealer: Sealer { Sealer(storeKey: key, purpose: "device-passkey") }

    /// What the database keeps to recognise its key: an HMAC of a fixed text, which says nothing of the key.
    var check: Data { Data(HMAC<SHA256>.authenticationCode(for: Data("accessdeck key check".utf8), using: key)) }

    /// A temporary database's key: new, kept in memory only, and nothing to check it against, since the database
    /// is new and goes with the process: reading and writing the `secrets` table for it was work of no use on
    /// the embedded backend's start (issue 34 item 1).
    static func temporary() -> StoreKey {
        StoreKey(key: SymmetricKey(size: .bits256))
    }

    /// `keyFile` nil: a database whose key is not written anywhere. A database from before kept
    /// its key in its `secrets` table: that key moves out to the key file (so every digest made with it
    /// still matches) and its row is erased. A database whose key file is missing or is another's is
    /// refused rather than opened with a new key, which would silently end every session and code in it.
    static func load(_ pool: DatabasePool, keyFile: String?) throws -> StoreKey {
        let (legacy, check) = try pool.read { db in
            (
                try SecretRecord.fetchOne(db, key: legacyKeyName)?.value,
                try SecretRecord.fetchOne(db, key: checkName)?.value
            )
        }
        let bytes: Data
        if let keyFile, let stored = try PrivateFiles.readKey(at: keyFile) {
            if let legacy, legacy != stored {
                throw StoreError("\(keyFile) is not the key of this database (its own key is still inside it)")
            }
            bytes = stored
        } else if let legacy {
            bytes = legacy
            if let keyFile { try PrivateFiles.createKey(legacy, at: keyFile) }
        } else if let keyFile, check != nil {
            throw StoreError(
                "the key file \(keyFile) of this database is missing: restore it, or remove the database to start afresh"
            )
        } else {
            bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            if let keyFile { try PrivateFiles.createKey(bytes, at: keyFile) }
        }
        guard bytes.count == byteCount else {
            throw StoreError("\(keyFile ?? "the database key") holds \(bytes.count) bytes, not \(byteCount)")
        }
        let storeKey = StoreKey(key: SymmetricKey(data: bytes))
        if let check, check != storeKey.check {
            throw StoreError("\(keyFile ?? "the key") is not the key of this database")
        }
        try pool.write { db in
            try SecretRecord(name: checkName, value: storeKey.check).insert(db, onConflict: .replace)
            try SecretRecord.deleteOne(db, key: legacyKeyName)
        }
        return storeKey
    }

    /// Writes the key into a copy of its database (a world's download) as a database from before kept it, so
    /// the copy is one file that opens on any server: `load` moves the key out beside it again.
    func embed(in db: Database) throws {
        let bytes = key.withUnsafeBytes { Data($0) }
        try SecretRecord(name: Self.legacyKeyName, value: bytes).insert(db, onConflict: .replace)
    }

    /// The row of `secrets` that recognises the key, and the one a database from before kept the key itself in.
    private static let checkName = "key_check"
    private static let legacyKeyName = "token_hmac"
}
