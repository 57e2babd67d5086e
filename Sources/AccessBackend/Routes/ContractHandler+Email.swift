import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `email` operations of openapi.yaml: changing or adding an email, and the password.
extension ContractHandler {
    func emailAvailable(_ input: Operations.EmailAvailable.Input) async throws -> Operations.EmailAvailable.Output {
        let availability = try await backend.emails.availability(user: try await user, email: input.query.email)
        decide(availability.available ? .emailAvailable : .emailTaken)
        return .ok(.init(body: .json(availability)))
    }

    func requestEmailChange(
        _ input: Operations.RequestEmailChange.Input
    ) async throws -> Operations.RequestEmailChange.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let sent = try await backend.emails.requestChange(
            user: user, email: body.email, reauth: try reauthProof(input.headers.xReauthToken))
        decide(.emailLinkSent)
        return .accepted(.init(body: .json(sent)))
    }

    func addEmailWithPassword(
        _ input: Operations.AddEmailWithPassword.Input
    ) async throws -> Operations.AddEmailWithPassword.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let sent = try await backend.emails.addWithPassword(user: user, email: body.email, password: body.password)
        decide(.emailLinkSent)
        return .accepted(.init(body: .json(sent)))
    }

    func resendEmailLink(_ input: Operations.ResendEmailLink.Input) async throws -> Operations.ResendEmailLink.Output {
        let sent = try await backend.emails.resend(user: try await user)
        decide(.emailLinkResent)
        return .accepted(.init(body: .json(sent)))
    }

    func verifyEmailLink(_ input: Operations.VerifyEmailLink.Input) async throws -> Operations.VerifyEmailLink.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let verified = try await backend.emails.verify(token: body.token)
        decide(.emailChanged)
        return .ok(.init(body: .json(verified)))
    }

    func revertEmailChange(
        _ input: Operations.RevertEmailChange.Input
    ) async throws -> Operations.RevertEmailChange.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let reverted = try await backend.emails.revert(token: body.token)
        decide(.emailReverted)
        return .ok(.init(body: .json(reverted)))
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let changed = try await backend.passwords.change(
            user: user, newPassword: body.newPassword, reauth: try reauthProof(input.headers.xReauthToken))
        decide(.passwordChanged)
        return .ok(.init(body: .json(changed)))
    }
}
