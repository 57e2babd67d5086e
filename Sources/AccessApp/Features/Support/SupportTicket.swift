import AccessAPI
import AccessCore
import Foundation

/// What support needs to find a person's story (issue 49 item 6): who they are (the user ID, or the number or
/// address they typed when signed out), where they were (the screens of the flow, the one they gave up on), and
/// the last error the app got with its request ID, the `X-Request-ID` the backend's journal keeps it under.
public struct SupportTicket: Equatable, Sendable {
    public enum Who: Equatable, Sendable {
        case user(String)
        /// Signed out: the number typed (E.164) or the address typed.
        case phone(String)
        case email(String)
        /// Signed out, and nothing typed yet.
        case signedOut
    }

    /// The last call that failed, as the app's journal recorded it.
    public struct LastError: Equatable, Sendable {
        public var code: String
        public var requestID: String

        public init(code: String, requestID: String) {
            self.code = code
            self.requestID = requestID
        }
    }

    public var who: Who
    /// The screens on the stack when support was chosen, bottom first, the screen itself last.
    public var flow: [String]
    /// Nil until the journal was read (or when nothing failed).
    public var lastError: LastError?

    public init(who: Who, flow: [String], lastError: LastError? = nil) {
        self.who = who
        self.flow = flow
        self.lastError = lastError
    }

    /// The screen support was chosen on.
    public var screen: String { flow.last ?? "" }

    /// The subject's bracket: "usr_…", or what was typed when signed out.
    var reference: String {
        switch who {
        case .user(let id): id
        case .phone(let number): PhoneNumberRules.display(e164: number)
        case .email(let address): address
        case .signedOut: Self.signedOutText
        }
    }

    static let signedOutText = "not signed in"
    static let noErrorText = "none"

    /// Label and value, in the order the mail and the screen list them.
    func fields(_ options: AppOptions) -> [(label: String, value: String)] {
        let person: (String, String) =
            switch who {
            case .user(let id): ("User ID", id)
            case .phone: ("Phone typed", reference)
            case .email: ("Email typed", reference)
            case .signedOut: ("User ID", Self.signedOutText)
            }
        return [
            person,
            ("Flow", flow.joined(separator: " › ")),
            ("Screen", screen),
            ("Last error", lastError?.code ?? Self.noErrorText),
            ("Request ID", lastError?.requestID ?? Self.noErrorText),
            ("App version", options.appVersion),
            ("Device", options.deviceDescription),
        ]
    }

    /// The identity is held: it belonged to an account deleted days ago, and nothing the person can do here
    /// frees it sooner. A dead end, so the screen that says it offers Contact support.
    static func isHold(_ failure: APIError) -> Bool {
        if case .server(_, ErrorCode.recentlyDeleted.rawValue, _) = failure { return true }
        return false
    }

    /// The last failed call in the app's journal: an error answer, or no answer at all.
    static func lastError(in records: [RequestRecord]) -> LastError? {
        guard let failed = records.last(where: { $0.errorCode != nil && $0.errorCode != "cancelled" }),
            let code = failed.errorCode
        else { return nil }
        return LastError(code: code, requestID: failed.requestID)
    }
}

/// Reads the app's own journal for the last failed call: what support asks the backend's timeline about.
struct LoadLastError: APIRequest {
    func perform(_ api: APIContext) async throws -> SupportTicket.LastError? {
        SupportTicket.lastError(in: api.client.journal.records)
    }
    /// Read from the app's memory: its answer says nothing of whether the backend is there.
    var reachesBackend: Bool { false }
}
