import AccessAPI
import Foundation

/// `POST /auth/login` through `AccountClient.login`, which keeps the session it answers (its glue is
/// written by hand: openapi-glue-config.yaml).
struct PasswordLogin: APIRequest {
    var email: String
    var password: Secret
    func perform(_ api: APIContext) async throws -> SignedIn {
        try await api.client.login(email: email, password: password.value)
    }
}
