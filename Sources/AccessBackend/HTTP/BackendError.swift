import AccessAPI
import AccessCore
import Hummingbird

/// Every refusal the backend makes, with the rule that made it (for the journal).
struct BackendError: Error, Sendable {
    var status: HTTPResponse.Status
    var detail: APIErrorDetail
    var rule: Rule
    /// Sent with the error, e.g. `Allow` on a 405.
    var headers: HTTPFields = [:]
    /// A code the contract's `ErrorCode` need not list, sent instead of `detail.code`: only an injected
    /// fault's, so QA can see how a client treats a code it does not know (by its status, with the message).
    var injectedCode: String?
    /// The connection closes once this answer is out, and nothing more of the request is read: for a refusal of a
    /// body the client may still be sending (issue 45 item 8: a 200 MiB body was read to its end first).
    var closesConnection = false
    /// A send limit's 429: the message it kept from going out, for the outbox (`EventLog.recordingRefusals`).
    var refusedSend: RateLimitService.RefusedSend? = nil

    init(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String, rule: Rule) {
        self.status = status
        self.detail = APIErrorDetail(code: code, message: message)
        self.rule = rule
    }

    /// Services name codes by their wire spelling; each must be a case of the contract's
    /// `ErrorCode`, so a misspelt or undocumented code stops the server in tests instead of
    /// reaching a client.
    init(_ status: HTTPResponse.Status, _ code: Code, _ message: String, rule: Rule) {
        self.init(status, code.value, message, rule: rule)
    }

    struct Code: ExpressibleByStringLiteral {
        let value: ErrorCode

        init(stringLiteral literal: String) {
            guard let code = ErrorCode(rawValue: literal) else {
                preconditionFailure("\(literal) is not an ErrorCode of openapi.yaml")
            }
            value = code
        }
    }

    static func badRequest(_ message: String, errors: [String]? = nil) -> BackendError {
        var error = BackendError(.badRequest, .badRequest, message, rule: .httpBadRequest)
        error.detail.errors = errors
        return error
    }

    static let unauthorized = BackendError(
        .unauthorized, .unauthorized, "Your session has expired. Sign in again.", rule: .sessionInvalid)

    static let reauthRequired = BackendError(
        .forbidden, .reauthRequired, "Verify it's you to continue.", rule: .reauthRequired)

    static func notFound(_ message: String = "Not found.") -> BackendError {
        BackendError(.notFound, .notFound, message, rule: .httpNotFound)
    }

    static func methodNotAllowed(allowed: [String]) -> BackendError {
        var error = BackendError(
            .methodNotAllowed, "method_not_allowed",
            "This path answers \(allowed.joined(separator: ", ")) only.", rule: .httpMethodNotAllowed)
        error.headers[.allow] = allowed.joined(separator: ", ")
        return error
    }

    static let unsupportedMediaType = BackendError(
        .unsupportedMediaType, "unsupported_media_type", "Send the request body as application/json.",
        rule: .httpUnsupportedMediaType)

    static let adminTokenRequired = BackendError(
        .unauthorized, "admin_token_required", "The admin API needs the X-Admin-Token header of this server.",
        rule: .adminUnauthorized)

    /// `rule`: the limit's own (`RateLimitKind.rule`) unless a flow names it otherwise.
    static func rateLimited(retryAfter: Int, limit: RateLimitKind, message: String, rule: Rule? = nil) -> BackendError {
        var error = BackendError(.tooManyRequests, .rateLimited, message, rule: rule ?? limit.rule)
        error.detail.retryAfter = retryAfter
        error.detail.limit = limit
        return error
    }
}

extension RateLimitKind {
    /// The rule that names this limit in the journal.
    var rule: Rule {
        switch self {
        case .cooldown: return .rateLimitCooldown
        case .resendWindow: return .rateLimitResendWindow
        case .dailyCap: return .rateLimitDailyCap
        case .passwordAttempts: return .rateLimitPasswordAttempts
        case .loginLockout: return .rateLimitLoginLockout
        case .twoFactorAttempts: return .rateLimitTwoFactorAttempts
        case .clientAddressHourly: return .rateLimitClientAddressHourly
        case .accountHourly: return .rateLimitAccountHourly
        case .globalHourly: return .rateLimitGlobalHourly
        }
    }
}
