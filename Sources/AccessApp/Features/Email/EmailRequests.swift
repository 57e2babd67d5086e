import AccessAPI

struct CheckEmailAvailability: APIRequest {
    var email: String
    func perform(_ api: APIContext) async throws -> EmailAvailability {
        try await api.client.emailAvailable(email: email)
    }
}

struct RequestEmailChange: APIRequest {
    var email: String
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> EmailLinkSent {
        try await api.client.requestEmailChange(email: email, reauthToken: reauthToken)
    }
}

struct AddEmailWithPassword: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> EmailLinkSent {
        try await api.client.addEmailWithPassword(email: email, password: password.value)
    }
}

struct ResendEmailLink: APIRequest {
    func perform(_ api: APIContext) async throws -> EmailLinkSent { try await api.client.resendEmailLink() }
}

struct VerifyEmailLink: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> EmailVerified {
        try await api.client.verifyEmailLink(token: token)
    }
}

struct RevertEmailChange: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> EmailReverted {
        try await api.client.revertEmailChange(token: token)
    }
}

struct ChangePassword: APIRequest {
    var newPassword: Secret
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> PasswordChanged {
        try await api.client.changePassword(newPassword: newPassword.value, reauthToken: reauthToken)
    }
}
