import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `sign-in` operations of openapi.yaml: codes by phone or email, providers, email and password.
extension ContractHandler {
    func startSignInCode(_ input: Operations.StartSignInCode.Input) async throws -> Operations.StartSignInCode.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let challenge = try await backend.signIns.start(body)
        decide(.signInCodeSent)
        return .accepted(.init(body: .json(challenge)))
    }

    func resendSignInCode(
        _ input: Operations.ResendSignInCode.Input
    ) async throws -> Operations.ResendSignInCode.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let challenge = try await backend.signIns.resend(challengeId: body.challengeId)
        decide(.signInCodeResent)
        return .accepted(.init(body: .json(challenge)))
    }

    func verifySignInCode(
        _ input: Operations.VerifySignInCode.Input
    ) async throws -> Operations.VerifySignInCode.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.signIns.verify(body)
        decide(signedIn.isNewUser ? .signInSignedUp : .signInSignedIn)
        return .ok(.init(body: .json(signedIn)))
    }

    func signInWithProvider(
        _ input: Operations.SignInWithProvider.Input
    ) async throws -> Operations.SignInWithProvider.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.signIns.withProvider(body)
        decide(signedIn.isNewUser ? .signInSignedUp : .signInSignedIn)
        return .ok(.init(body: .json(signedIn)))
    }

    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let registered = try await backend.passwordLogins.register(body)
        decide(.registerLinkSent)
        return .created(.init(body: .json(registered)))
    }

    func resendRegistrationLink(
        _ input: Operations.ResendRegistrationLink.Input
    ) async throws -> Operations.ResendRegistrationLink.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let resent = try await backend.passwordLogins.resend(email: body.email)
        decide(.registerResendAnswered)
        return .accepted(.init(body: .json(resent)))
    }

    func confirmRegistration(
        _ input: Operations.ConfirmRegistration.Input
    ) async throws -> Operations.ConfirmRegistration.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let confirmed = try await backend.passwordLogins.confirm(token: body.token)
        decide(.registerConfirmed)
        return .ok(.init(body: .json(confirmed)))
    }

    func loginWithPassword(
        _ input: Operations.LoginWithPassword.Input
    ) async throws -> Operations.LoginWithPassword.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.passwordLogins.login(body)
        decide(.loginSignedIn)
        return .ok(.init(body: .json(signedIn)))
    }

    func passkeySignInOptions(
        _ input: Operations.PasskeySignInOptions.Input
    ) async throws -> Operations.PasskeySignInOptions.Output {
        .ok(.init(body: .json(try await backend.passkeys.signInOptions())))
    }

    func passkeySignIn(_ input: Operations.PasskeySignIn.Input) async throws -> Operations.PasskeySignIn.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.passkeys.signIn(body)
        decide(.passkeySignedIn)
        return .ok(.init(body: .json(signedIn)))
    }
}
