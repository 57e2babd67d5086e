import AccessCore
import Foundation

/// What went wrong with a call, in terms a screen can switch on without parsing strings.
/// `message` keeps the server's copy for display where it sent one.
public enum APIError: Error, Equatable, Sendable {
    /// No answer: connection refused, DNS, a connection that did not open in time or was lost (never "invalid
    /// credentials", seed 002). A 5xx is an answer, not this: `.server` (issue 48 item 2); a slow one `.timedOut`.
    case offline(reason: String)
    /// The connection was there but the answer did not come within the client's time-out (`--timeout`,
    /// `after`): a slow backend, not a missing one, so not offline (issue 48 item 19).
    case timedOut(after: Duration)
    /// `retryAfter` nil: the server named no wait, so none is invented; the person may retry. `limit`: which
    /// limit fired, when the server names it (the gap between sends is not a limit reached, a daily cap is).
    case rateLimited(retryAfter: Int?, message: String, limit: RateLimitKind? = nil)
    case codeIncorrect(attemptsRemaining: Int, message: String)
    /// A wrong current password; `attemptsRemaining` before the password lock, when the server says.
    /// `retryAfter`: this very attempt started a lockout of that many seconds (a 401 that carries
    /// `retry_after`, or a `Retry-After` header), which the screen shows at once.
    case passwordIncorrect(attemptsRemaining: Int?, message: String, retryAfter: Int? = nil)
    case codeExpired(message: String)
    /// The phone or email belongs to another account (the server never says whose).
    case taken(message: String)
    /// `bounds`: the server's own length bounds for the field's rule, when it sends them (a username's).
    case invalid(fieldErrors: [String], message: String, bounds: FieldBounds? = nil)
    case reauthRequired(message: String)
    /// The access token was refused (the client refreshes once before surfacing this).
    case unauthorized(message: String)
    /// The session could not be refreshed and was cleared: sign in again.
    case signedOut
    /// Another device signed this session out (401 `session_revoked`, issue 30); it was cleared here.
    case signedOutElsewhere(message: String)
    /// The session could not be refreshed, and the backend said why it ended (a 401 with `reason`, issue 49
    /// item 3: `password_changed`, …); it was cleared. An unknown reason reads as `signedOut`'s copy.
    case sessionEnded(reason: String)
    case server(status: Int, code: String, message: String)

    public var message: String {
        switch self {
        case .offline: return OnScreenMessage.offline.text
        case .timedOut(let after): return Self.timedOutText(after: after)
        case .rateLimited(_, let message, _), .codeIncorrect(_, let message), .passwordIncorrect(_, let message, _),
            .codeExpired(let message),
            .taken(let message), .invalid(_, let message, _), .reauthRequired(let message), .unauthorized(let message),
            .signedOutElsewhere(let message), .server(_, _, let message):
            return message
        case .signedOut: return OnScreenMessage.sessionExpired.text
        case .sessionEnded(let reason): return SessionEndReason.signedOutText(reason)
        }
    }

    /// What a call that timed out says: that it timed out and after how long (the client's time-out), and, as
    /// seed 004 has it for a network or server error, that it may be tried again.
    public static func timedOutText(after timeout: Duration) -> String {
        "The request timed out after \(seconds(timeout)) s. Try again."
    }

    /// What the journal records for a call that timed out (`RequestRecord.errorCode`).
    public static let timedOutCode = "timed_out"

    /// "3", "1.5", "0.25": `--timeout` takes tenths and more.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        guard !milliseconds.isMultiple(of: 1000) else { return "\(milliseconds / 1000)" }
        var text = String(format: "%.3f", Double(milliseconds) / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// Seed 002's words for an answer the client cannot take: a status the contract does not list for the
    /// call, or a body that does not decode as the contract says.
    public static let invalidResponseText = OnScreenMessage.invalidResponse.text

    /// An answer the contract does not allow for the call (its status, or its body): never taken as a
    /// success, nor as any of the kinds above.
    public static func invalidResponse(status: Int) -> APIError {
        .server(status: status, code: "invalid_response", message: invalidResponseText)
    }

    /// No answer came, whether nobody was there (offline) or the answer was too slow (timed out): asking
    /// again may work, and nothing the backend decided can be read from it.
    public var gotNoAnswer: Bool {
        switch self {
        case .offline, .timedOut: return true
        default: return false
        }
    }

    /// No answer at all.
    public var isOffline: Bool {
        if case .offline = self { return true }
        return false
    }

    /// A 5xx: the server is there and failed. Neither offline nor back (issue 48 item 2): it leaves the offline
    /// banner as it is, and the screen says it with a way to try again (seed 004).
    public var isServerError: Bool {
        if case .server(let status, let code, _) = self { return status >= 500 && code != "invalid_response" }
        return false
    }

    /// A gateway's 502, 503 or 504: the one server error a GET is asked again for (a read is harmless twice).
    public var isGatewayError: Bool {
        if case .server(502...504, let code, _) = self { return code != "invalid_response" }
        return false
    }

    public var isInvalidResponse: Bool {
        if case .server(_, "invalid_response", _) = self { return true }
        return false
    }

    /// A 429 that names no wait, in its body or its `Retry-After` header.
    public static let tryLaterText = OnScreenMessage.tryLater.text

    /// Maps a non-2xx answer to an error kind by status and the body's error code. A body that is
    /// not the contract's error shape (an HTML page from a proxy, a code this client does not know)
    /// still gives a kind by status, with the server's message when one can be read.
    public static func from(status: Int, body: Data, retryAfterHeader: String?) -> APIError {
        let wire = ErrorReply(body)
        let message = wire.message ?? HTTPStatusText.describe(status)
        let header = retryAfterHeader.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let seconds = (wire.detail?.retryAfter ?? header).map { max(1, $0) }
        switch (status, wire.code) {
        case (429, _):
            return .rateLimited(
                retryAfter: seconds, message: wire.message ?? (seconds == nil ? tryLaterText : message),
                limit: wire.limit)
        case (401, .codeIncorrect) where seconds != nil:
            // The wrong code that started a lockout (two-factor's fifth, issue 31) carries its wait: a lock
            // from now on, shown at once rather than on the next try.
            return .rateLimited(retryAfter: seconds, message: message, limit: wire.limit)
        case (401, .codeIncorrect):
            return .codeIncorrect(attemptsRemaining: wire.detail?.attemptsRemaining ?? 0, message: message)
        case (401, .passwordIncorrect), (401, .credentialsInvalid):
            return .passwordIncorrect(
                attemptsRemaining: wire.detail?.attemptsRemaining, message: message, retryAfter: seconds)
        case (401, .sessionRevoked):
            // Not a stale token: refreshing cannot help, the refresh token died with it.
            return .signedOutElsewhere(message: message)
        case (401, .refreshInvalid) where wire.detail?.reason != nil:
            // A refresh refused for a session that ended, with why: the device says it (issue 49 item 3).
            return .sessionEnded(reason: wire.detail?.reason ?? "")
        case (401, .providerTokenInvalid), (401, .refreshInvalid):
            // A wrong secret, not a stale session: refreshing and sending it again would only spend
            // another attempt.
            return .invalid(fieldErrors: [], message: message)
        case (401, _):
            // `unauthorized`, `token_expired`, or whatever another backend calls a refused session
            // (`invalid_token`, no body at all): the session middleware refreshes once and retries.
            return .unauthorized(message: message)
        case (410, .linkSuperseded):
            // Not over: replaced by a newer link, which the screen says (issue 28 item 3).
            return .server(status: status, code: ErrorCode.linkSuperseded.rawValue, message: message)
        case (410, .codeIncorrect),
            (410, _) where wire.detail?.attemptsRemaining == 0:
            // Another backend's answer to the last wrong code (issue 46 item 9): gone, its body saying the wrong
            // tries ran out. The same limit as our 401 with none left, so the screen names it, not an expiry.
            return .codeIncorrect(attemptsRemaining: 0, message: message)
        case (410, _):
            return .codeExpired(message: message)
        case (409, let code?) where code.isTaken:
            return .taken(message: message)
        case (400, let code?) where code.isMalformedInput, (422, let code?) where code.isMalformedInput:
            return .invalid(fieldErrors: wire.detail?.errors ?? [], message: message, bounds: wire.bounds)
        case (403, .reauthRequired):
            return .reauthRequired(message: message)
        case (500..., _):
            // The server answered, and failed: not offline (nothing would bring it "back"), said in one wording
            // whatever its body says (a gateway's page, a fault's "No connection"), with the status for F3.
            return .server(status: status, code: wire.rawCode ?? "", message: OnScreenMessage.serverError.text)
        default:
            return .server(status: status, code: wire.rawCode ?? "", message: message)
        }
    }
}

/// An error body as far as it can be read: the contract's shape, else just its code and message.
struct ErrorReply {
    var detail: APIErrorDetail?
    var rawCode: String?
    var message: String?
    var limit: RateLimitKind?

    var code: ErrorCode? { detail?.code ?? rawCode.flatMap(ErrorCode.init(rawValue:)) }

    /// The server's `min`/`max` for the field's rule; nil when it sent neither.
    var bounds: FieldBounds? {
        guard detail?.min != nil || detail?.max != nil else { return nil }
        return FieldBounds(min: detail?.min, max: detail?.max)
    }

    init(_ body: Data) {
        if let decoded = try? APIJSON.makeContractDecoder().decode(APIErrorBody.self, from: body) {
            detail = decoded.error
            rawCode = decoded.error.code.rawValue
            message = decoded.error.message
            limit = decoded.error.limit
            return
        }
        // A code added to a backend after this client was built fails the strict decode above;
        // its message is still the best thing to show.
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        rawCode = error?["code"] as? String
        message = (error?["message"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        limit = (error?["limit"] as? String).flatMap(RateLimitKind.init(rawValue:))
    }
}

enum HTTPStatusText {
    static func describe(_ status: Int) -> String {
        switch status {
        case 400..<500: return "The request was not accepted (HTTP \(status))."
        default: return OnScreenMessage.serverError.text
        }
    }
}

/// A server's own length bounds for a field's rule, from its 422 (`min`, `max`): what the app says instead of
/// its own numbers, which another backend's need not match.
public struct FieldBounds: Equatable, Sendable {
    public var min: Int?
    public var max: Int?

    public init(min: Int?, max: Int?) {
        self.min = min
        self.max = max
    }
}
