import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `recovery` operations of openapi.yaml: recovery by email (seed 003).
extension ContractHandler {
    func startRecovery(_ input: Operations.StartRecovery.Input) async throws -> Operations.StartRecovery.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let started = try await backend.recovery.start(body, ip: ContractScope.current?.remoteAddress)
        decide(.recoveryAnswered)
        return .accepted(.init(body: .json(started)))
    }

    func checkRecoveryLink(
        _ input: Operations.CheckRecoveryLink.Input
    ) async throws -> Operations.CheckRecoveryLink.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let link = try await backend.recovery.check(token: body.token)
        decide(.recoveryLinkLive)
        return .ok(.init(body: .json(link)))
    }

    func completeRecovery(
        _ input: Operations.CompleteRecovery.Input
    ) async throws -> Operations.CompleteRecovery.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.recovery.complete(body)
        decide(.recoverySignedInLimited)
        return .ok(.init(body: .json(signedIn)))
    }
}
