import AccessAPI
import AccessCore
import Foundation
import OpenAPIRuntime

/// The `links` operations of openapi.yaml: what an emailed link is, asked without spending it (issue 27).
extension ContractHandler {
    func inspectLink(_ input: Operations.InspectLink.Input) async throws -> Operations.InspectLink.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let info = try await backend.links.inspect(token: body.token)
        decide(.linkInspected)
        return .ok(.init(body: .json(info)))
    }
}
