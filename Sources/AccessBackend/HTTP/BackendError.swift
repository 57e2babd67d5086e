import AccessAPI
import Hummingbird

/// Every refusal the backend makes, with the rule that made it (for the journal).
struct BackendError: Error, Sendable {
    var status: HTTPResponse.Status
    var detail: APIErrorDetail
    var rule: String
    /// Sent with the error, e.g. `Allow` on a 405.
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String, rule: String? = nil) {
        self.status = status
        self.detail = APIErrorDetail(code: code, message: message)
        self.rule = rule ?? code.rawValue
    }

    /// Services name codes by their wire spelling; each must be a case of the contract's
    /// `ErrorCode`, so a misspelt or undocumented code stops the server in tests instead of
    /// reaching a client.
    init(_ status: HTTPResponse.Status, _ code: Code, _ message: String, rule: String? = nil) {
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
        var error = BackendError(.badRequest, .badRequest, message, rule: "http.bad_request")
        error.detail.errors = errors
        return error
    }

    static let unauthorized = BackendError(
        .unauthorized, .unauthorized, "Your session has expired. Sign in again.", rule: "session.invalid")

    static let reauthRequired = BackendError(
        .forbidden, .reauthRequired, "Verify it's you to continue.", rule: "reauth.required")

    static func notFound(_ message: String = "Not found.") -> BackendError {
        BackendError(.notFound, .notFound, message, rule: "http.not_found")
    }

    static func methodNotAllowed(allowed: [String]) -> BackendError {
        var error = BackendError(
            .methodNotAllowed, "method_not_allowed",
            "This path answers \(allowed.joined(separator: ", ")) only.", rule: "http.method_not_allowed")
        error.headers[.allow] = allowed.joined(separator: ", ")
        return error
    }

    static let unsupportedMediaType = BackendError(
        .unsupportedMediaType, "unsupported_media_type", "Send the request body as application/json.",
        rule: "http.unsupported_media_type")

    static let adminTokenRequired = BackendError(
        .unauthorized, "admin_token_required", "The admin API needs the X-Admin-Token header of this server.",
        rule: "admin.unauthorized")

    static func rateLimited(retryAfter: Int, limit: String, message: String) -> BackendError {
        var error = BackendError(.tooManyRequests, .rateLimited, message, rule: "rate_limit.\(limit)")
        error.detail.retryAfter = retryAfter
        error.detail.limit = RateLimitKind(rawValue: limit)
        return error
    }
}
