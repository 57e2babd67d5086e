import Hummingbird

/// A world's front door. Every request goes through the router, whose routes each run the gateway, the contract
/// scope and the generated handler, except the reads `HotReads` answers: those go through the same gateway and
/// contract scope straight to their answer, without finding a route in the router's tree (issue 34 item 2).
struct WorldResponder: HTTPResponder {
    typealias Context = AppContext

    let router: RouterResponder<AppContext>
    let gateway: GatewayMiddleware
    let contractScope: ContractScopeMiddleware
    let hotReads: HotReads

    func respond(to request: Request, context: AppContext) async throws -> Response {
        guard let read = HotReads.read(request) else { return try await router.respond(to: request, context: context) }
        return try await gateway.handle(request, context: context) { request, context in
            try await contractScope.scoped(request, context: context) { _, context in
                try await hotReads.answer(read, capture: context.capture)
            }
        }
    }
}
