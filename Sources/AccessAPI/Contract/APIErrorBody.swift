/// Every non-2xx answer: `{"error": {"code", "message", ...details}}` (DESIGN §5).
public struct APIErrorBody: Codable, Sendable, Equatable {
    public var error: APIErrorDetail

    public init(error: APIErrorDetail) {
        self.error = error
    }
}

public struct APIErrorDetail: Codable, Sendable, Equatable {
    /// Stable machine-readable code, e.g. `phone_taken`, `code_incorrect`, `rate_limited`.
    public var code: String
    /// Human copy, taken from seed 001 where it has one.
    public var message: String
    public var attemptsRemaining: Int?
    /// Seconds to wait; also sent as the `Retry-After` header on a 429.
    public var retryAfter: Int?
    /// Which limit fired on a 429: `cooldown`, `resend_window`, `daily_cap` or `password_attempts`.
    public var limit: String?
    /// Field-level problems (password rules, bad request fields).
    public var errors: [String]?

    public init(
        code: String, message: String, attemptsRemaining: Int? = nil, retryAfter: Int? = nil,
        limit: String? = nil, errors: [String]? = nil
    ) {
        self.code = code
        self.message = message
        self.attemptsRemaining = attemptsRemaining
        self.retryAfter = retryAfter
        self.limit = limit
        self.errors = errors
    }
}
