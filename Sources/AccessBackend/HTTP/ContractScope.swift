import AccessAPI
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime
import Synchronization

/// The Hummingbird request behind the generated handler's typed input: the services authenticate
/// from it, and the handler tells the journal which rule decided. A task-local, because the
/// generated `APIProtocol` methods receive only the typed input. A class: a task-local's value is copied out on
/// every read, and this struct's copy went through the runtime's generic value witnesses, thousands of
/// instructions a request (issue 34 item 2).
final class ContractScope: Sendable {
    @TaskLocal static var current: ContractScope?

    let request: Request
    let decision: Decision
    /// Where the contract layer leaves the answer's body for the journal.
    let capture: JournalCapture?
    /// The peer's IP address as the connection shows it (no proxy header is trusted); nil when the
    /// channel has none, e.g. a Unix socket.
    let remoteAddress: String?
    /// Which rules the world answering keeps (`RulePolicy.current`).
    let policy: RulePolicy
    /// The world's token digest: how the event log (`EventLog`) finds the sign-in of the request's bearer token.
    let digest: TokenDigest?

    init(
        request: Request, decision: Decision, capture: JournalCapture? = nil, remoteAddress: String? = nil,
        policy: RulePolicy = .everyRule, digest: TokenDigest? = nil
    ) {
        self.request = request
        self.decision = decision
        self.capture = capture
        self.remoteAddress = remoteAddress
        self.policy = policy
        self.digest = digest
    }
}

/// Between the gateway and the generated routes: reads the body within the contract's size limit
/// (an oversized upload gets a clean 413 instead of a reset), opens the `ContractScope`, turns the
/// runtime's `ServerError` back into the `BackendError` the gateway renders as JSON, and sends the
/// answer in one write.
struct ContractScopeMiddleware: RouterMiddleware {
    typealias Context = AppContext

    /// The world's rule policy, which each request's scope carries to the services.
    var policy = RulePolicy.everyRule
    var digest: TokenDigest? = nil

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        let response = try await scoped(request, context: context, next: next)
        return try await Self.inOneWrite(
            response, capture: request.uri.path == Self.journalPath ? nil : context.capture)
    }

    /// `handle` without gathering the answer: for an answer already in one buffer, whose maker gives it to
    /// `context.capture` itself (`HotReads`).
    func scoped(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        let isUpload = WorldFile.isUpload(request)
        // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3): every GET the app
        // makes. Not reading it spares the read and its iterator; Hummingbird takes the request's end after the
        // answer, as it does for every route that does not read its body (issue 34 item 2).
        let body =
            JSONBody.isFramed(request)
            ? try await JSONBody.collect(request, limit: isUpload ? WorldRegistry.maxUploadBytes : JSONBody.limit)
            : ByteBuffer()
        context.capture.setRequestBody(body)
        if !isUpload {
            try JSONBody.refuseDuplicateKeys(
                in: body, refusingNulls: !RequestGate.isAdmin(path: request.uri.path))
        }
        let bodyRead = BodyReadMark()
        // The scope holds the one copy of the request handed on, and what follows reads it there: each copy of a
        // request is a retain and a release of each of its parts (issue 34 item 2).
        let scope = ContractScope(
            request: Self.handedOn(request, body: body, mark: bodyRead), decision: context.decision,
            capture: context.capture, remoteAddress: PeerAddress.text(context.channel.remoteAddress), policy: policy,
            digest: digest)
        do {
            return try await ContractScope.$current.withValue(scope) { try await next(scope.request, context) }
        } catch let error as ServerError {
            let answered = Self.backendError(for: error, request: scope.request, bodyWasRead: bodyRead.isSet)
            guard let refusal = answered as? BackendError else { throw answered }
            throw policy.refusal(refusal, answering: scope.request)
        } catch let refusal as BackendError {
            // A read answered without the generated layers (`HotReads`) throws its refusal as it is.
            throw policy.refusal(refusal, answering: scope.request)
        }
    }

    /// The request with its collected body, which reading sets `mark`. The contract's GET and HEAD operations
    /// take no body, so theirs is not handed on: a body of its own and a copy of the request for every read the
    /// app makes.
    private static func handedOn(_ request: Request, body: ByteBuffer, mark: BodyReadMark) -> Request {
        guard request.method != .get, request.method != .head else { return request }
        var request = request
        request.body = .init(asyncSequence: MarkedBody(buffer: body, mark: mark))
        return request
    }

    /// Larger answers (a long journal or outbox) go out as they come.
    static let largestGathered = 1 << 20

    /// The journal's own answer is not kept in the journal: it would quote the journal inside itself.
    static let journalPath = "/_admin/journal"

    /// The generated routes answer with a streamed body, which Hummingbird sends as three writes (head,
    /// body, end), each a hop to the event loop and a flush: most of the time a small answer took. Every
    /// contract answer is one small JSON document, so it is gathered here and sent with its head in one
    /// write; `capture` keeps the same bytes for the journal.
    static func inOneWrite(_ response: Response, capture: JournalCapture?) async throws -> Response {
        guard let length = response.body.contentLength, length <= largestGathered else { return response }
        let gathered = GatheringWriter(capacity: length)
        try await response.body.write(gathered)
        var response = response
        response.body = .init(byteBuffer: gathered.buffer)
        capture?.setResponseBody(gathered.buffer)
        return response
    }

    /// `bodyWasRead`: whether the generated code had started on the body. It decodes the path's parameters,
    /// then the query's, then the body, and a parameter's `DecodingError` has an empty coding path just as a
    /// body that is not JSON has: without this, `?limit=abc` was "body: expected a number.".
    static func backendError(for error: ServerError, request: Request, bodyWasRead: Bool) -> any Error {
        switch error.underlyingError {
        case let backend as BackendError:
            return backend
        case let decoding as DecodingError where !bodyWasRead:
            return BackendError.badRequest(
                RequestParameters.describe(
                    decoding, path: error.requestMetadata.pathParameters,
                    query: request.uri.queryParameters.map { (String($0.key), String($0.value)) }))
        case let decoding as DecodingError:
            return JSONBody.refusal(for: decoding, operationID: error.operationID)
        case is CancellationError:
            return CancellationError()
        default:
            break
        }
        switch error.httpStatus.code {
        case 415:
            return BackendError(
                .unsupportedMediaType, "unsupported_media_type", "Send the body as application/json.",
                rule: .httpUnsupportedMediaType)
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

/// Workaround for swift-openapi-generator issue 934: a property both required and nullable is
/// generated as an Optional whose nil the synthesized encoder leaves out, so `GET /me/auth-methods`
/// would answer without `"email"` for a user with no email, breaking seed 000's shape. This puts
/// the explicit `null`s back into every AuthMethods object of a JSON answer (see
/// `AuthMethods.withExplicitNulls`). Remove it when the generator encodes `null` itself.
struct ExplicitNullMiddleware: ServerMiddleware {
    /// Operations whose answer holds an AuthMethods object, read from the document by make generate (a hand
    /// list had left out the second factor's two sign-ins and the opened email link).
    static let operations = ContractBodies.answersHoldingAuthMethods

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

/// Set once the generated code starts reading the request body.
final class BodyReadMark: Sendable {
    private let flag = Mutex(false)

    func set() { flag.withLock { $0 = true } }

    var isSet: Bool { flag.withLock { $0 } }
}

/// The collected body, handed on as one buffer; reading it sets `mark`.
private struct MarkedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let buffer: ByteBuffer
    let mark: BodyReadMark

    struct AsyncIterator: AsyncIteratorProtocol {
        var buffer: ByteBuffer?
        let mark: BodyReadMark

        mutating func next() async -> ByteBuffer? {
            mark.set()
            defer { buffer = nil }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(buffer: buffer, mark: mark) }
}

/// Collects a response body's buffers instead of sending them.
private final class GatheringWriter: ResponseBodyWriter {
    private(set) var buffer: ByteBuffer

    init(capacity: Int) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }

    func write(_ buffer: ByteBuffer) async throws { self.buffer.writeImmutableBuffer(buffer) }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
