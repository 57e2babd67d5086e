import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `account` operations of openapi.yaml: sign-in methods, connecting and disconnecting providers,
/// deleting the account.
extension ContractHandler {
    func getAuthMethods(_ input: Operations.GetAuthMethods.Input) async throws -> Operations.GetAuthMethods.Output {
        .ok(.init(body: .json(try await authMethods())))
    }

    /// GET /me/auth-methods, for the generated route and for `HotReads`, which answers it without the
    /// runtime's generic layers.
    func authMethods() async throws -> AuthMethods {
        try await session.user.authMethods
    }

    func disconnectProvider(
        _ input: Operations.DisconnectProvider.Input
    ) async throws -> Operations.DisconnectProvider.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let methods = try await backend.disconnects.disconnect(
            user: user, provider: body.provider, reauth: try reauthProof(input.headers.xReauthToken))
        decide(.disconnectDone)
        return .ok(.init(body: .json(methods)))
    }

    func connectProvider(_ input: Operations.ConnectProvider.Input) async throws -> Operations.ConnectProvider.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let methods = try await backend.providerLinks.connect(
            user: user, provider: body.provider, idToken: body.idToken)
        decide(.connectDone)
        return .ok(.init(body: .json(methods)))
    }

    func deletePreflight(_ input: Operations.DeletePreflight.Input) async throws -> Operations.DeletePreflight.Output {
        let preflight = try await backend.deletions.preflight(user: try await user)
        decide(preflight.blockers.isEmpty ? .deletePreflightClear : .deletePreflightBlocked)
        return .ok(.init(body: .json(preflight)))
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        let deleted = try await backend.deletions.delete(
            user: try await user, reauth: try reauthProof(input.headers.xReauthToken))
        decide(.deleteDone)
        return .ok(.init(body: .json(deleted)))
    }
}
