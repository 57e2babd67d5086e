import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `password-reset` operations of openapi.yaml: Forgot password? (issue 28 item 25).
extension ContractHandler {
    func requestPasswordReset(
        _ input: Operations.RequestPasswordReset.Input
    ) async throws -> Operations.RequestPasswordReset.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let requested = try await backend.passwordResets.request(email: body.email)
        decide(.passwordResetAnswered)
        return .accepted(.init(body: .json(requested)))
    }

    func checkPasswordResetLink(
        _ input: Operations.CheckPasswordResetLink.Input
    ) async throws -> Operations.CheckPasswordResetLink.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let link = try await backend.passwordResets.check(token: body.token)
        decide(.passwordResetLinkLive)
        return .ok(.init(body: .json(link)))
    }

    func completePasswordReset(
        _ input: Operations.CompletePasswordReset.Input
    ) async throws -> Operations.CompletePasswordReset.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let done = try await backend.passwordResets.complete(token: body.token, newPassword: body.newPassword)
        decide(.passwordReset)
        return .ok(.init(body: .json(done)))
    }
}
