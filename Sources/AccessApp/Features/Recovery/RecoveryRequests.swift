import AccessAPI

// The backend calls of a recovery: the request, the link's check and the password that finishes it.

/// The checked link with its token: the password screen spends the same token. A link the backend
/// does not know is, for the person, one that no longer works: both lead to "Request a new link".
struct CheckRecoveryLink: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> CheckedRecoveryLink {
        do {
            return CheckedRecoveryLink(
                link: try await api.client.checkRecoveryLink(token: token), token: Secret(token))
        } catch let error as APIError {
            throw Self.asSeen(error)
        }
    }

    static func asSeen(_ error: APIError) -> APIError {
        guard case .server(404, ErrorCode.linkNotFound.rawValue, let message) = error else { return error }
        return .codeExpired(message: message)
    }
}

struct CheckedRecoveryLink: Equatable, Sendable {
    var link: RecoveryLink
    var token: Secret
}

/// Keeps the new (limited) session in the client before the app lands.
struct CompleteRecovery: APIRequest {
    var token: Secret
    var password: Secret
    func perform(_ api: APIContext) async throws -> SignedIn {
        try await api.client.completeRecovery(token: token.value, password: password.value)
    }
}
