import AccessAPI
import Foundation

/// One `fixtures/scenarios/NAME.json`: a world QA can load. Format: fixtures/README.md.
struct Scenario: Decodable, Sendable {
    struct Person: Decodable, Sendable {
        var id: String
        var role: UserRole?
        var phone: String?
        var email: String?
        /// Plain text in the fixture (QA must be able to type it); hashed on load.
        var password: String?
        var passwordChangedDaysAgo: Double?
        var appleLinked: Bool?
        var googleLinked: Bool?
    }

    struct Send: Decodable, Sendable {
        var phone: String
        var secondsAgo: Double
        var resend: Bool?
    }

    /// An email change waiting for its link, sent `minutesAgo` (past 30: the link has expired).
    struct PendingEmailChange: Decodable, Sendable {
        var email: String
        var minutesAgo: Double
    }

    struct Clock: Decodable, Sendable {
        var start: Date?
        var frozen: Bool?
    }

    var description: String
    var user: Person
    var others: [Person]?
    var otpSends: [Send]?
    var testCodes: [String: String]?
    var clock: Clock?
    var pendingEmailChange: PendingEmailChange?
    /// Reserved for the delete flow's blockers (next wave); accepted so fixtures can already carry them.
    var bookings: [JSONValue]?
    var payouts: [JSONValue]?

    static let knownKeys: Set<String> = [
        "description", "user", "others", "otp_sends", "test_codes", "clock", "bookings", "payouts",
        "pending_email_change",
    ]
    static let personKeys: Set<String> = [
        "id", "role", "phone", "email", "password", "password_changed_days_ago", "apple_linked", "google_linked",
    ]
}

/// Any JSON, kept only to be validated as JSON.
enum JSONValue: Decodable, Sendable {
    case value

    init(from decoder: any Decoder) throws {
        self = .value
    }
}

/// A scenario that cannot be found or does not validate; the description names file, field and problem.
public struct ScenarioError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
