import AccessAPI
import Foundation

struct PasswordLogin: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> SignedIn {
        try await api.client.login(email: email, password: password.value)
    }
}

struct Register: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> Registered {
        try await api.client.register(email: email, password: password.value)
    }
}

struct ResendRegistrationLink: APIRequest {
    var email: String
    func perform(_ api: APIContext) async throws -> VerificationResent {
        try await api.client.resendRegistrationLink(email: email)
    }
}

struct ConfirmRegistration: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> RegistrationConfirmed {
        try await api.client.confirmRegistration(token: token)
    }
}
