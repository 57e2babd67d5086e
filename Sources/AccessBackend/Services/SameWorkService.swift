import AccessAPI
import Foundation
import GRDB

/// The anonymous routes that must not tell whether an address has an account (a password reset, a recovery
/// start) give the same answer and count the same limits for every address; they also do the same work, so
/// their time does not tell either (issue 45 item 7: a reset answered in 7.8 ms for an address with an account
/// and 5.9 ms for one without, a recovery start in 6.2 and 4.8 ms). For an address without an account, what the
/// account would get (its link, sealed into the outbox, its notices) is made for a stand-in inside a savepoint,
/// then rolled back: the same statements run, nothing is kept. Answering first and sending afterwards would
/// have left the send's time on the next request instead.
enum SameWorkService {
    /// Runs `work` for `account`, or, when there is none, for a stand-in with the typed address that is undone.
    static func forAccount(
        _ db: Database, _ account: UserRecord?, email: String, _ work: (UserRecord) throws -> Void
    ) throws {
        // The stand-in's rows name a user that does not exist: foreign keys are checked at the commit, when the
        // rollback has taken them away (a row that stayed by mistake would fail the commit, not be kept). The
        // pragma lasts until this transaction ends.
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        try db.inSavepoint {
            try work(account ?? standIn(email: email))
            return account == nil ? .rollback : .commit
        }
    }

    /// An account as a recoverable one looks: an email, a password and a phone to tell.
    private static func standIn(email: String) -> UserRecord {
        UserRecord(
            id: "usr_stand_in", role: .athlete, isPrimary: false, phone: "+10000000000", email: email,
            passwordHash: "stand-in", passwordSalt: nil, passwordChangedAt: nil, appleSubject: nil, googleSubject: nil)
    }
}
