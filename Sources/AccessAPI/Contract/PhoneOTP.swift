import Foundation

public enum OTPPurpose: String, Codable, Sendable, CaseIterable {
    case changePhone = "change_phone"
    case addPhone = "add_phone"
    case reauth
}

/// `POST /auth/phone/request-otp`.
public struct RequestOTPBody: Codable, Sendable, Equatable {
    public var phone: String
    public var purpose: OTPPurpose

    public init(phone: String, purpose: OTPPurpose) {
        self.phone = phone
        self.purpose = purpose
    }
}

/// 202 from request-otp and resend-otp.
public struct OTPRequestAccepted: Codable, Sendable, Equatable {
    public var requestId: String
    public var phone: String
    public var purpose: OTPPurpose
    public var expiresAt: Date
    /// The earliest moment a resend is accepted (30 s cooldown).
    public var resendAfter: Date

    public init(requestId: String, phone: String, purpose: OTPPurpose, expiresAt: Date, resendAfter: Date) {
        self.requestId = requestId
        self.phone = phone
        self.purpose = purpose
        self.expiresAt = expiresAt
        self.resendAfter = resendAfter
    }
}

/// Body of resend-otp and cancel-otp.
public struct OTPRequestRef: Codable, Sendable, Equatable {
    public var requestId: String

    public init(requestId: String) {
        self.requestId = requestId
    }
}

public struct OTPCancelled: Codable, Sendable, Equatable {
    public var requestId: String
    public var status: String

    public init(requestId: String, status: String = "cancelled") {
        self.requestId = requestId
        self.status = status
    }
}

/// `POST /auth/phone/verify-otp`.
public struct VerifyOTPBody: Codable, Sendable, Equatable {
    public var requestId: String
    public var code: String

    public init(requestId: String, code: String) {
        self.requestId = requestId
        self.code = code
    }
}

/// 200 from verify-otp: the new methods for change/add, a re-auth grant for re-auth.
public struct VerifyOTPResult: Codable, Sendable, Equatable {
    public var purpose: OTPPurpose
    public var authMethods: AuthMethods?
    public var reauth: ReauthGrant?

    public init(purpose: OTPPurpose, authMethods: AuthMethods? = nil, reauth: ReauthGrant? = nil) {
        self.purpose = purpose
        self.authMethods = authMethods
        self.reauth = reauth
    }
}
