import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `passkeys` operations of openapi.yaml (issue 53): registering, listing, renaming and removing passkeys. Their
/// ways in are with their tags' operations: `passkeySignIn` in +SignIn, `reauthPasskey` in +Reauth.
extension ContractHandler {
    func passkeyRegistrationOptions(
        _ input: Operations.PasskeyRegistrationOptions.Input
    ) async throws -> Operations.PasskeyRegistrationOptions.Output {
        .ok(.init(body: .json(try await backend.passkeys.registrationOptions(user: try await user))))
    }

    func listPasskeys(_ input: Operations.ListPasskeys.Input) async throws -> Operations.ListPasskeys.Output {
        .ok(.init(body: .json(try await backend.passkeys.list(user: try await user))))
    }

    func registerPasskey(_ input: Operations.RegisterPasskey.Input) async throws -> Operations.RegisterPasskey.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let passkey = try await backend.passkeys.register(user: user, body: body)
        decide(.passkeyRegistered)
        return .created(.init(body: .json(passkey)))
    }

    func renamePasskey(_ input: Operations.RenamePasskey.Input) async throws -> Operations.RenamePasskey.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let passkey = try await backend.passkeys.rename(user: user, id: input.path.id, name: body.name)
        decide(.passkeyRenamed)
        return .ok(.init(body: .json(passkey)))
    }

    func removePasskey(_ input: Operations.RemovePasskey.Input) async throws -> Operations.RemovePasskey.Output {
        try await backend.passkeys.remove(
            user: try await user, id: input.path.id, reauth: try reauthProof(input.headers.xReauthToken))
        decide(.passkeyRemoved)
        return .noContent(.init())
    }
}
