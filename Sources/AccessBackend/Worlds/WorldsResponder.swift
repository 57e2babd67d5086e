import Hummingbird

/// In front of every world's router: a path outside `/w/` goes to the default world exactly as before worlds;
/// `/w/NAME/rest` goes to world NAME (made on its first request) as `/rest`, so each world serves the whole
/// contract and its own admin API unchanged.
struct WorldsResponder: HTTPResponder {
    typealias Context = AppContext

    static let stopping = BackendError(.serviceUnavailable, "offline", "The server is stopping.", rule: .httpInternal)

    let registry: WorldRegistry
    let gate: RequestGate

    func respond(to request: Request, context: AppContext) async throws -> Response {
        guard let (name, rest) = WorldName.split(request.uri.path) else {
            guard let world = registry.defaultWorld else { return JSONReply.error(Self.stopping) }
            return try await world.responder.respond(to: request, context: context)
        }
        do {
            let name = String(name)
            try WorldName.validate(name)
            // Before a world is made for it: a request the gate refuses (a rebinding page's Host, an encoded
            // path) must not cost a world.
            let isAdmin = RequestGate.isAdmin(path: String(rest))
            try gate.check(request, path: request.uri.path, isAdmin: isAdmin)
            var head = request.head
            head.path = request.uri.query.map { "\(rest)?\($0)" } ?? String(rest)
            let inner = Request(head: head, body: request.body)
            return try await registry.serve(
                name, admit: { try admit(inner, path: String(rest), isAdmin: isAdmin) },
                { world in try await world.responder.respond(to: inner, context: context) })
        } catch let error as BackendError {
            return JSONReply.error(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // A file in --data-dir that no longer opens, or another server holding it: never the error's text.
            context.logger.error(
                "could not open a world", metadata: ["world": "\(name)", "type": "\(type(of: error))"])
            return JSONReply.error(
                BackendError(
                    .internalServerError, "internal", "This world could not be opened. Try again.",
                    rule: .httpInternal))
        }
    }

    /// What a request must be to make a world, or open one kept in `--data-dir` (issue 45 item 4): let through
    /// by everything the world's gateway checks without reading the world (admin access, content type, a route
    /// that exists), so a refused request costs no world; and sent by no web page, whatever its method: a
    /// page's no-cors GET may read an open world's /health, never make one.
    private func admit(_ request: Request, path: String, isAdmin: Bool) throws {
        if request.headers.contains(.origin), gate.policy.enforces(.httpOriginNotAllowed) {
            throw BackendError.originMakesNoWorld
        }
        guard let world = registry.defaultWorld else { throw Self.stopping }
        // Every world's gateway is the same but for its faults, journal and clock, which this does not read.
        try world.responder.gateway.admit(request, path: path, isAdmin: isAdmin)
    }
}

extension BackendError {
    static let originMakesNoWorld = BackendError(
        .forbidden, "origin_not_allowed",
        "Requests from a web page (with an Origin header) may not make a world: make it first without one "
            + "(POST /_admin/worlds, or any request from the app or curl).",
        rule: .httpOriginNotAllowed)
}
