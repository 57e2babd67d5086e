import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Reads and updates the identity of a user: the data behind the Account Access hub.
struct AccountService: Sendable {
    let store: Store

    func user(id: String) async throws -> UserRecord {
        guard let user = try await store.pool.read({ try UserRecord.fetchOne($0, key: id) }) else {
            throw BackendError.unauthorized
        }
        return user
    }

    /// The scenario's signed-in user. Once they deleted their account there is nobody to sign in as:
    /// a clear refusal, so the app shows itself signed out instead of a session that 401s at once.
    func primaryUser() async throws -> UserRecord {
        try await store.pool.read { db in
            let user = try UserRecord.filter(sql: "is_primary = 1").fetchOne(db)
            let deleted = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM deletions WHERE is_primary = 1)")
            if deleted == true || user?.deletedAt != nil, RulePolicy.current.enforces(.adminAccountDeleted) {
                throw BackendError(
                    .conflict, "account_deleted",
                    "The scenario's user deleted their account. Load a scenario to start again.",
                    rule: .adminAccountDeleted)
            }
            guard let user else {
                throw BackendError(.conflict, "no_scenario", "No scenario is loaded.", rule: .adminNoScenario)
            }
            return user
        }
    }

    /// The user as the enclosing transaction sees it. Every rule that decides on the user's methods reads
    /// them here, inside the write that acts on the decision, never from the copy made at authentication.
    static func current(_ db: Database, id: String) throws -> UserRecord {
        guard let user = try UserRecord.fetchOne(db, key: id), user.deletedAt == nil else {
            throw BackendError.unauthorized
        }
        return user
    }

    /// True when `phone` belongs to someone other than `userId`. Never says who (privacy, seed 001).
    static func phoneTaken(_ db: Database, phone: String, by userId: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS(SELECT 1 FROM users WHERE phone = ? AND id != ?)", arguments: [phone, userId])
            ?? false
    }

    static let phoneTakenError = BackendError(
        .conflict, "phone_taken", "This number is already in use by another account.", rule: .phoneTaken)
}
