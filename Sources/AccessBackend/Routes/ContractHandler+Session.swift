import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `session` operations of openapi.yaml: refresh, logout and who the session belongs to.
extension ContractHandler {
    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let refreshed = try await backend.sessions.refresh(body.refreshToken)
        decide(refreshed.rule)
        return .ok(.init(body: .json(refreshed.tokens)))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        try await backend.sessions.logout(try request)
        decide(.sessionLogout)
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        .ok(.init(body: .json(try await backend.sessions.me(try request))))
    }
}
