import Foundation

/// What went wrong with a call, in terms a screen can switch on without parsing strings.
/// `message` keeps the server's copy for display where it sent one.
public enum APIError: Error, Equatable, Sendable {
    /// No answer: connection refused, DNS, time-out, or the service unavailable (never
    /// "invalid credentials", seed 002).
    case offline(reason: String)
    case rateLimited(retryAfter: Int, message: String)
    case codeIncorrect(attemptsRemaining: Int, message: String)
    case codeExpired(message: String)
    /// The phone or email belongs to another account (the server never says whose).
    case taken(message: String)
    case invalid(fieldErrors: [String], message: String)
    case reauthRequired(message: String)
    /// The access token was refused (the client refreshes once before surfacing this).
    case unauthorized(message: String)
    /// The session could not be refreshed and was cleared: sign in again.
    case signedOut
    case server(status: Int, code: String, message: String)

    public var message: String {
        switch self {
        case .offline: return "You're offline. Check your connection and try again."
        case .rateLimited(_, let message), .codeIncorrect(_, let message), .codeExpired(let message),
            .taken(let message), .invalid(_, let message), .reauthRequired(let message), .unauthorized(let message),
            .server(_, _, let message):
            return message
        case .signedOut: return "Your session ended. Sign in again."
        }
    }

    /// Maps a non-2xx answer to an error kind by status and the body's error code.
    public static func from(status: Int, body: Data, retryAfterHeader: String?) -> APIError {
        let detail = (try? APIJSON.makeDecoder().decode(APIErrorBody.self, from: body))?.error
        let code = detail?.code ?? ""
        let message = detail?.message ?? HTTPStatusText.describe(status)
        switch (status, code) {
        case (429, _):
            let seconds = detail?.retryAfter ?? retryAfterHeader.flatMap { Int($0) } ?? 60
            return .rateLimited(retryAfter: seconds, message: message)
        case (401, "code_incorrect"):
            return .codeIncorrect(attemptsRemaining: detail?.attemptsRemaining ?? 0, message: message)
        case (401, "unauthorized"), (401, "token_expired"), (401, ""):
            return .unauthorized(message: message)
        case (401, _):
            // A wrong password or provider token: the session itself is fine, so no refresh.
            return .invalid(fieldErrors: [], message: message)
        case (410, _):
            return .codeExpired(message: message)
        case (409, let code) where code.hasSuffix("_taken"):
            return .taken(message: message)
        case (422, _), (400, _):
            return .invalid(fieldErrors: detail?.errors ?? [], message: message)
        case (403, "reauth_required"):
            return .reauthRequired(message: message)
        case (502, _), (503, _), (504, _):
            return .offline(reason: "HTTP \(status)")
        default:
            return .server(status: status, code: code, message: message)
        }
    }
}

enum HTTPStatusText {
    static func describe(_ status: Int) -> String {
        switch status {
        case 400..<500: return "The request was not accepted (HTTP \(status))."
        default: return "Something went wrong on the server (HTTP \(status))."
        }
    }
}
