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

    func listSessions(_ input: Operations.ListSessions.Input) async throws -> Operations.ListSessions.Output {
        // Reading the list changes nothing: a limited session (after a recovery by email) may see it.
        let sessions = try await backend.sessionList.list(user: try await session.user, request: try request)
        return .ok(.init(body: .json(sessions)))
    }

    func signOutSession(_ input: Operations.SignOutSession.Input) async throws -> Operations.SignOutSession.Output {
        try await backend.sessionList.signOut(
            user: try await user, request: try request, id: input.path.id, reauthToken: input.headers.xReauthToken)
        decide(.sessionSignedOut)
        return .noContent(.init())
    }

    func signOutOtherSessions(
        _ input: Operations.SignOutOtherSessions.Input
    ) async throws -> Operations.SignOutOtherSessions.Output {
        let ended = try await backend.sessionList.signOutOthers(
            user: try await user, request: try request, reauthToken: input.headers.xReauthToken)
        decide(.sessionSignedOutOthers)
        return .ok(.init(body: .json(ended)))
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        .ok(.init(body: .json(try await backend.sessions.me(try request))))
    }
}
