import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `meta` operations of openapi.yaml: is the backend up.
extension ContractHandler {
    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        .ok(.init(body: .json(HealthStatus())))
    }
}
