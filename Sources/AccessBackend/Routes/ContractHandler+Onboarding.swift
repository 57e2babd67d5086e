import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `onboarding` operations of openapi.yaml (seed 003).
extension ContractHandler {
    func getProfile(_ input: Operations.GetProfile.Input) async throws -> Operations.GetProfile.Output {
        let session = try await session
        var profile = try await backend.onboarding.profile(user: session.user, access: session.access)
        profile.assuranceLevel = .init(session.assurance)
        return .ok(.init(body: .json(profile)))
    }

    func updateProfile(_ input: Operations.UpdateProfile.Input) async throws -> Operations.UpdateProfile.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        var profile = try await backend.onboarding.update(user: session.user, access: session.access, body: body)
        profile.assuranceLevel = .init(session.assurance)
        decide(.profileSaved)
        return .ok(.init(body: .json(profile)))
    }

    func usernameAvailable(
        _ input: Operations.UsernameAvailable.Input
    ) async throws -> Operations.UsernameAvailable.Output {
        let availability = try await backend.onboarding.availability(
            user: try await session.user, username: input.query.username)
        decide(availability.available ? .usernameAvailable : .usernameTaken)
        return .ok(.init(body: .json(availability)))
    }

    func setRecoveryEmail(
        _ input: Operations.SetRecoveryEmail.Input
    ) async throws -> Operations.SetRecoveryEmail.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let profile = try await backend.onboarding.setRecoveryEmail(user: user, body: body)
        decide(.onboardingRecoveryEmailSet)
        return .accepted(.init(body: .json(profile)))
    }

    func continueOnboarding(
        _ input: Operations.ContinueOnboarding.Input
    ) async throws -> Operations.ContinueOnboarding.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let profile = try await backend.onboarding.proceed(user: user, from: body.from)
        decide(.onboardingContinued)
        return .ok(.init(body: .json(profile)))
    }
}
