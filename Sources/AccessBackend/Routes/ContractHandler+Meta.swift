import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `meta` operations of openapi.yaml: is the backend up, and the contract it serves.
extension ContractHandler {
    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        .ok(.init(body: .json(healthStatus())))
    }

    /// GET /health, for the generated route and for `HotReads`.
    func healthStatus() -> HealthStatus { HealthStatus() }

    /// So a generated client (a QA team's Python one) is made from the contract this server keeps.
    func openapiDocument(
        _ input: Operations.OpenapiDocument.Input
    ) async throws -> Operations.OpenapiDocument.Output {
        .ok(.init(body: .yaml(HTTPBody(OpenAPIDocument.yaml))))
    }
}
