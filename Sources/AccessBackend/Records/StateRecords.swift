import Foundation
import GRDB

/// A row of `meta`: what the loaded scenario says of itself.
struct MetaRecord: Record {
    static let databaseTableName = "meta"

    enum Key: String, Codable, DatabaseValueConvertible, Sendable {
        /// The scenario's name.
        case scenario
        /// Present when the scenario starts signed out: no QA session.
        case startsSignedOut = "starts_signed_out"
        /// The access of the QA session it hands out.
        case sessionAccess = "session_access"
        /// How many scenario loads this database has seen (`GET /_admin/state`): a client that knew a smaller
        /// one learns that another tool reset the world under it.
        case epoch
    }

    var key: Key
    var value: String

    static func value(_ db: Database, _ key: Key) throws -> String? {
        try fetchOne(db, key: key.rawValue)?.value
    }
}

/// A row of `saved_state`: faults or the clock as a restart puts them back (`StateSaver`), as JSON.
struct SavedStateRecord: Record {
    static let databaseTableName = "saved_state"

    enum Key: String, Codable, DatabaseValueConvertible, Sendable {
        case faults, clock
    }

    var key: Key
    var value: String
}

/// A row of `journal`: one saved journal entry, as JSON (`StateSaver`).
struct JournalRecord: Record {
    static let databaseTableName = "journal"

    var id: Int
    var entry: String
}

/// A row of `secrets`: only `key_check` now, what recognises the database's key (`StoreKey`); a database
/// from before also held the key itself as `token_hmac` until it was moved out.
struct SecretRecord: Record {
    static let databaseTableName = "secrets"

    var name: String
    var value: Data
}
