import AccessAPI

struct RequestPhoneOTP: APIRequest {
    var phone: String
    var purpose: OTPPurpose
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> OTPRequestAccepted {
        try await api.client.requestOtp(phone: phone, purpose: purpose, reauthToken: reauthToken)
    }
}

struct ResendPhoneOTP: APIRequest {
    var requestId: String
    func perform(_ api: APIContext) async throws -> OTPRequestAccepted {
        try await api.client.resendOtp(requestId: requestId)
    }
}

/// Back from the code screen cancels the request server-side (seed 000).
struct CancelPhoneOTP: APIRequest {
    var requestId: String
    func perform(_ api: APIContext) async throws -> Acknowledged {
        _ = try await api.client.cancelOtp(requestId: requestId)
        return Acknowledged()
    }
}

struct VerifyPhoneOTP: APIRequest {
    var requestId: String
    var code: String
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> VerifyOTPResult {
        try await api.client.verifyOtp(requestId: requestId, code: code, reauthToken: reauthToken)
    }
}
