import AccessCore
import Foundation
import GRDB

/// A row of `events` (issue 49): one decision about one person, written in the transaction that made it
/// (`EventLog`). Append-only; never a code, token, password or link token. `detail` is a JSON object of
/// strings (channel, purpose, reason, tries left, …).
struct EventRecord: Record {
    static let databaseTableName = "events"

    var id: Int64? = nil
    /// The backend's clock, Unix seconds.
    var at: Double
    var kind: String
    /// The account it concerns; nil for a sign-in code to an address with no account yet.
    var userId: String?
    /// The phone number or email address it concerns, when there is one: what finds the events of an address
    /// before (or without) an account.
    var subject: String?
    var rule: String?
    /// The sign-in (refresh family) and the device, when the decision belongs to one.
    var familyId: String?
    var deviceId: String?
    var clientAddress: String?
    var detail: String

    var details: [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(detail.utf8))) ?? [:]
    }
}
