import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `reauth` operations of openapi.yaml: "Verify it's you".
extension ContractHandler {
    func reauthPassword(_ input: Operations.ReauthPassword.Input) async throws -> Operations.ReauthPassword.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let grant = try await backend.reauth.byPassword(user: user, accessHash: try accessHash, password: body.password)
        decide(.reauthGranted)
        return .ok(.init(body: .json(grant)))
    }

    func reauthEmailSend(_ input: Operations.ReauthEmailSend.Input) async throws -> Operations.ReauthEmailSend.Output {
        let sent = try await backend.links.sendReauthLink(user: try await user)
        decide(.linkSent)
        return .accepted(.init(body: .json(sent)))
    }

    func reauthEmailConfirm(
        _ input: Operations.ReauthEmailConfirm.Input
    ) async throws -> Operations.ReauthEmailConfirm.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let grant = try await backend.links.confirmReauth(user: user, accessHash: try accessHash, token: body.token)
        decide(.reauthGranted)
        return .ok(.init(body: .json(grant)))
    }

    func reauthSocial(_ input: Operations.ReauthSocial.Input) async throws -> Operations.ReauthSocial.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let grant = try await backend.providers.reauth(
            user: user, accessHash: try accessHash, provider: body.provider, idToken: body.idToken)
        decide(.reauthGranted)
        return .ok(.init(body: .json(grant)))
    }

    func reauthAuthenticator(
        _ input: Operations.ReauthAuthenticator.Input
    ) async throws -> Operations.ReauthAuthenticator.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let grant = try await backend.twoFactor.reauth(user: user, accessHash: try accessHash, code: body.code)
        decide(.reauthGranted)
        return .ok(.init(body: .json(grant)))
    }

    func reauthPasskeyOptions(
        _ input: Operations.ReauthPasskeyOptions.Input
    ) async throws -> Operations.ReauthPasskeyOptions.Output {
        .ok(.init(body: .json(try await backend.passkeys.reauthOptions(user: try await user))))
    }

    func reauthPasskey(_ input: Operations.ReauthPasskey.Input) async throws -> Operations.ReauthPasskey.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let grant = try await backend.passkeys.reauth(user: user, accessHash: try accessHash, body: body)
        decide(.reauthGranted)
        return .ok(.init(body: .json(grant)))
    }
}
