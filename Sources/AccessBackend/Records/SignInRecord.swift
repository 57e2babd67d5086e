import AccessAPI
import GRDB

/// A row of `sign_ins`: one sign-in, the family every rotated session of it shares (issue 30's "session").
struct SignInRecord: Record {
    static let databaseTableName = "sign_ins"

    var familyId: String
    var userId: String
    /// The device the sign-in registered (seed 004); nil for the QA shortcut without one.
    var deviceId: String?
    /// Nil for the QA shortcut without one and for the session an email change issues.
    var method: SessionMethod?
    var createdAt: Double
    /// The last refresh or authenticated call, on the backend's clock (`SessionListService.lastSeenStep`).
    var lastSeenAt: Double
    var clientAddress: String?
}
