import AccessAPI
import Foundation

/// What stands in the way of deleting (seed 000: checked before re-auth).
struct LoadDeletePreflight: APIRequest {
    func perform(_ api: APIContext) async throws -> DeletePreflight { try await api.client.deletePreflight() }
}

struct DeleteAccount: APIRequest {
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> AccountDeleted {
        try await api.client.deleteAccount(reauthToken: reauthToken)
    }
}

extension APIError {
    /// The server's 409 while a blocker still stands (one was added since the check).
    var isDeleteBlocked: Bool {
        if case .server(409, "delete_blocked", _) = self { return true }
        return false
    }

    /// No answer, or the server failed: asking again may work.
    var isWorthRetrying: Bool {
        switch self {
        case .offline: return true
        case .server(let status, _, _): return status >= 500
        default: return false
        }
    }
}
