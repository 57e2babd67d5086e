import AccessCore
import HTTPTypes
import Hummingbird
import Logging

/// `serve`'s front door for another server of ours: `accessdeck proxy` (issue 52) listens as the reference backend
/// does — the same connection limits and request parsing (`Listener`, `ConnectionHandler`), the same request gate
/// and the same admin access rules — so whatever `serve` refuses at its door, the proxy refuses at its own.
public final class FrontDoor<Responder: HTTPResponder>: Sendable
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    private let listener: Listener<Responder>

    /// Returns once `host:port` accepts connections (port 0: any free port, read back from `port`).
    public init(
        host: String, port: Int, responder: Responder, limits: ReferenceBackend.ConnectionLimits = .init(),
        logger: Logger, name: String
    ) async throws {
        listener = try await Listener(
            host: host, port: port, responder: responder, limits: limits,
            connections: ConnectionRegistry(maxConnections: limits.maxConnections), logger: logger, name: name)
    }

    public var port: Int { listener.port }

    /// Set on an answer to send it with this Date rather than the wall clock's (the proxy passes the upstream's
    /// on).
    public static var dateField: HTTPField.Name { ConnectionHandler.ownDate }

    /// Stops listening; returns once every request in flight has its answer.
    public func shutdown() async { await listener.shutdown() }

    /// Returns after `shutdown()`, or throws when serving failed.
    public func waitUntilStopped() async throws { try await listener.waitUntilStopped() }
}

/// `RequestGate` and the admin API's access rule, for a server that is not the reference backend: the refusal it
/// owes a request, as the reference backend's JSON error answer, or nil to let it through.
public struct FrontGate: Sendable {
    private let gate: RequestGate
    private let admin: ReferenceBackend.AdminAccess

    /// `host`: the address the server is bound to (a loopback one: only loopback names in Host are answered).
    public init(host: String, admin: ReferenceBackend.AdminAccess) {
        gate = RequestGate(loopbackOnly: ReferenceBackend.isLoopback(host))
        self.admin = admin
    }

    /// Whether `path` reaches the backend's admin API (`/_admin/…`, as its router reads the path).
    public static func isBackendAdmin(path: String) -> Bool { RequestGate.isAdmin(path: path) }

    /// `isAdmin`: the request reaches an admin API (the backend's or the server's own); it then needs the admin
    /// token when there is one, and gets a 404 when admin is disabled.
    public func refusal(_ request: Request, isAdmin: Bool) -> Response? {
        do {
            try gate.check(request, path: request.uri.path, isAdmin: isAdmin)
            guard isAdmin else { return nil }
            switch admin {
            case .open:
                return nil
            case .disabled:
                throw BackendError.notFound()
            case .token(let expected):
                let presented = request.headers[Self.adminTokenField] ?? ""
                guard Secrets.constantTimeEquals(presented, expected) else { throw BackendError.adminTokenRequired }
                return nil
            }
        } catch let error as BackendError {
            return JSONReply.error(error)
        } catch {
            return JSONReply.error(BackendError.badRequest("The request was refused."))
        }
    }

    private static let adminTokenField = HTTPField.Name(ReferenceBackend.adminTokenHeader)!
}
