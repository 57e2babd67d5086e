import AccessAPI
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// The Hummingbird request behind the generated handler's typed input: the services authenticate
/// from it, and the handler tells the journal which rule decided. A task-local, because the
/// generated `APIProtocol` methods receive only the typed input.
struct ContractScope: Sendable {
    @TaskLocal static var current: ContractScope?

    let request: Request
    let decision: Decision
}

/// Between the gateway and the generated routes: reads the body within the contract's size limit
/// (an oversized upload gets a clean 413 instead of a reset), opens the `ContractScope`, and turns
/// the runtime's `ServerError` back into the `BackendError` the gateway renders as JSON.
/// A path the document names but a method it does not gets 405 with `Allow`, not the router's 404.
struct ContractScopeMiddleware: RouterMiddleware {
    typealias Context = AppContext

    let routes: RouteTable

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        var request = request
        request.body = .init(buffer: try await JSONBody.collect(request))
        let scope = ContractScope(request: request, decision: context.decision)
        do {
            return try await ContractScope.$current.withValue(scope) { try await next(request, context) }
        } catch let error as ServerError {
            throw Self.backendError(for: error)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(for: request.uri.path)
            guard !allowed.isEmpty else { throw error }
            context.decision.set("http.method")
            var response = JSONReply.error(
                BackendError(
                    .methodNotAllowed, "method_not_allowed",
                    "Method not allowed: use \(allowed.joined(separator: " or ")).", rule: "http.method"))
            response.headers[.allow] = allowed.joined(separator: ", ")
            return response
        }
    }

    static func backendError(for error: ServerError) -> any Error {
        switch error.underlyingError {
        case let backend as BackendError:
            return backend
        case let decoding as DecodingError:
            return BackendError.badRequest(JSONBody.describe(decoding))
        case is CancellationError:
            return CancellationError()
        default:
            break
        }
        switch error.httpStatus.code {
        case 415:
            return BackendError(
                .unsupportedMediaType, "unsupported_media_type", "Send the body as application/json.",
                rule: "http.unsupported_media_type")
        case 400..<500:
            // The runtime's own description names the part (header, query, body), never its value.
            let missingBody = error.causeDescription.contains("Missing required request body")
            return BackendError.badRequest(
                missingBody ? "The request needs a JSON body." : "The request does not match the contract.")
        default:
            return error.underlyingError
        }
    }
}

/// The methods the contract serves on each path, for the 405 above.
struct RouteTable: Sendable {
    private let routes: [(segments: [Substring], method: String)]

    /// `described`: "METHOD /path/{parameter}", as Hummingbird's router lists its routes.
    init(_ described: [String]) {
        routes = described.compactMap { route in
            let parts = route.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (parts[1].split(separator: "/"), String(parts[0]))
        }
    }

    func methods(for path: String) -> [String] {
        let segments = path.split(separator: "/")
        return routes.filter { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }.map(\.method).sorted()
    }
}

/// Workaround for swift-openapi-generator issue 934: a property both required and nullable is
/// generated as an Optional whose nil the synthesized encoder leaves out, so `GET /me/auth-methods`
/// would answer without `"email"` for a user with no email, breaking seed 000's shape. This puts
/// the explicit `null`s back into every AuthMethods object of a JSON answer (see
/// `AuthMethods.withExplicitNulls`). Remove it when the generator encodes `null` itself.
struct ExplicitNullMiddleware: ServerMiddleware {
    /// Operations whose answer holds an AuthMethods object.
    static let operations: Set<String> = [
        Operations.GetAuthMethods.id, Operations.DisconnectProvider.id, Operations.VerifyOtp.id,
    ]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, metadata)
        guard Self.operations.contains(operationID), let responseBody else { return (response, responseBody) }
        let data = try await Data(collecting: responseBody, upTo: 1 << 20)
        let fixed = AuthMethods.withExplicitNulls(data)
        // The runtime already declared the old body's length.
        var head = response
        head.headerFields[.contentLength] = String(fixed.count)
        return (head, HTTPBody(fixed))
    }
}
