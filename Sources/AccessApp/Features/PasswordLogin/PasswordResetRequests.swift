import AccessAPI

// The backend calls of Forgot password?: the request for a link, the link's check and the new password.

/// The checked link with its token: "Set a new password" spends the same token. A link the backend does
/// not know is, for the person, one that no longer works: both lead to "Request a new link".
struct CheckPasswordResetLink: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> CheckedResetLink {
        do {
            return CheckedResetLink(
                link: try await api.client.checkPasswordResetLink(token: token), token: Secret(token))
        } catch let error as APIError {
            throw CheckRecoveryLink.asSeen(error)
        }
    }
}

struct CheckedResetLink: Equatable, Sendable {
    var link: PasswordResetLink
    var token: Secret
}

struct CompletePasswordReset: APIRequest {
    var token: Secret
    var newPassword: Secret
    func perform(_ api: APIContext) async throws -> PasswordResetDone {
        do {
            return try await api.client.completePasswordReset(token: token.value, newPassword: newPassword.value)
        } catch let error as APIError {
            throw CheckRecoveryLink.asSeen(error)
        }
    }
}
