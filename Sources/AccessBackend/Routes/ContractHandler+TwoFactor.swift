import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `two-factor` operations of openapi.yaml (issue 31): the second step of a sign-in, and the
/// authenticator's setup, recovery codes and turning it off.
extension ContractHandler {
    func verifyTwoFactor(
        _ input: Operations.VerifyTwoFactor.Input
    ) async throws
        -> Operations.VerifyTwoFactor.Output
    {
        let (session, accessHash) = try await secondStepSession
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.twoFactor.verify(
            session: session, accessHash: accessHash, code: body.code)
        decide(.twoFactorPassed)
        return .ok(.init(body: .json(signedIn)))
    }

    func useRecoveryCode(
        _ input: Operations.UseRecoveryCode.Input
    ) async throws
        -> Operations.UseRecoveryCode.Output
    {
        let (session, accessHash) = try await secondStepSession
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.twoFactor.useRecoveryCode(
            session: session, accessHash: accessHash, typed: body.recoveryCode)
        decide(.twoFactorRecoveryCodeUsed)
        return .ok(.init(body: .json(signedIn)))
    }

    func getTwoFactor(
        _ input: Operations.GetTwoFactor.Input
    ) async throws
        -> Operations.GetTwoFactor.Output
    {
        .ok(.init(body: .json(try await backend.twoFactor.status(user: try await user))))
    }

    func disableTwoFactor(
        _ input: Operations.DisableTwoFactor.Input
    ) async throws
        -> Operations.DisableTwoFactor.Output
    {
        let user = try await user
        try await backend.twoFactor.disable(user: user, reauth: try reauthProof(input.headers.xReauthToken))
        decide(.twoFactorDisabled)
        return .noContent(.init())
    }

    func startTwoFactorSetup(
        _ input: Operations.StartTwoFactorSetup.Input
    ) async throws -> Operations.StartTwoFactorSetup.Output {
        let user = try await user
        let setup = try await backend.twoFactor.startSetup(
            user: user, reauth: try reauthProof(input.headers.xReauthToken))
        decide(.twoFactorSetupStarted)
        return .created(.init(body: .json(setup)))
    }

    func confirmTwoFactorSetup(
        _ input: Operations.ConfirmTwoFactorSetup.Input
    ) async throws -> Operations.ConfirmTwoFactorSetup.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let codes = try await backend.twoFactor.confirm(
            user: user, accessHash: backend.sessions.accessHash(of: try request), code: body.code)
        decide(.twoFactorEnabled)
        return .ok(.init(body: .json(codes)))
    }

    func regenerateRecoveryCodes(
        _ input: Operations.RegenerateRecoveryCodes.Input
    ) async throws -> Operations.RegenerateRecoveryCodes.Output {
        let user = try await user
        let codes = try await backend.twoFactor.regenerateRecoveryCodes(
            user: user, reauth: try reauthProof(input.headers.xReauthToken))
        decide(.twoFactorRecoveryCodesRegenerated)
        return .ok(.init(body: .json(codes)))
    }

    /// The session passing its second step: one that awaits it (the point), an aal2 one, or a limited one (a
    /// recovery by email still passes the second factor before anything else, seed 003 and issue 31).
    private var secondStepSession: (SessionService.Authenticated, accessHash: String) {
        get async throws {
            let request = try request
            let session = try await backend.sessions.authenticateSession(
                request, firstFactor: .secondStepOrLogout)
            guard let accessHash = backend.sessions.accessHash(of: request) else {
                throw BackendError.unauthorized
            }
            return (session, accessHash)
        }
    }
}
