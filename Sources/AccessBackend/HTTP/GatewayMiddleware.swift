import AccessAPI
import AccessCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// Outermost layer: the request gate (path, Host, Origin), admin access, content type, faults, JSON errors for
/// everything (404s, 405s and framework errors included) and the journal entry for every request.
struct GatewayMiddleware: RouterMiddleware {
    typealias Context = AppContext

    let faults: FaultService
    let journal: JournalService
    let clock: BackendClock
    let admin: ReferenceBackend.AdminAccess
    let routes: RouteTable
    let gate: RequestGate

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path
        // On the path the router matches, not on how it is written (issue 25: `//_admin/…` got past).
        let isAdmin = RequestGate.isAdmin(path: path)
        var injection: FaultService.Injection?
        var response: Response
        do {
            try gate.check(request, path: path, isAdmin: isAdmin)
            injection = isAdmin ? nil : faults.injection(for: path).flatMap { applied($0, to: request) }
            if let injection { context.capture.setFault(injection.name) }
            var canned: Response?
            if isAdmin, gate.policy.enforces(.adminUnauthorized, answering: request) {
                try authorizeAdmin(request)
            } else if let injection {
                canned = try await applyBeforeHandling(injection, context: context)
            }
            if let canned {
                response = canned
            } else {
                try Self.requireJSONBody(request)
                response = try await next(request, context)
                if context.decision.value == nil { context.decision.set(.ok) }
            }
        } catch let error as BackendError {
            if error.closesConnection { await ConnectionHandler.closeAfterAnswer(on: context.channel) }
            response = answer(error, context)
        } catch let error as HTTPError {
            response = answer(Self.map(error, allowed: routes.allowedMethods(for: path)), context)
        } catch is HTTPParserError {
            // The body broke off in a way NIO's parser refuses, after the route had started reading it.
            response = answer(BackendError.badRequest("The request body's framing is invalid."), context)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Never the error's text: it could quote input.
            context.logger.error("unhandled error", metadata: ["type": "\(type(of: error))", "path": "\(path)"])
            response = answer(
                BackendError(
                    .internalServerError, "internal", "Something went wrong. Try again.", rule: .httpInternal),
                context)
        }
        if let injection, case .runThenClose(let rule) = injection.action {
            // The request ran and its writes are committed; the client never learns how it went.
            context.decision.set(rule)
            try? await context.channel.close()
        }
        if let injection, case .reshape(let reshape, let rule) = injection.action {
            // Whatever the request was answered, success or refusal, is what the fault reshapes.
            if let rule { context.decision.set(rule) }
            response = await Self.reshaped(response, reshape, context: context)
        }
        // The rules' time, which QA moves, rather than the wall clock's: what a proxy watching the traffic reads.
        response.headers[ConnectionHandler.ownDate] = HTTPDate.format(clock.now())
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        // Polled by clients (the admin state every few seconds, the clock about once a second by an app that
        // follows it over HTTP, issue 48 item 8): kept, they would push the calls QA looks for out.
        guard !Self.isPoll(request.method, path) else { return response }
        journal.record(
            context.capture.entry(
                request: request, path: path, responseStatus: response.status.code,
                responseIsJSON: response.headers.value(of: .contentType).map(Self.isJSON) ?? false, at: clock.now(),
                ms: (ms * 1000).rounded() / 1000, rule: context.decision.value ?? .ok))
        return response
    }

    static let adminStatePath = "/_admin/state"
    static let adminClockPath = "/_admin/clock"

    /// The reads clients poll, which the journal does not keep: the admin state, and a read of the clock (a move,
    /// `POST /_admin/clock` or `/_admin/clock/advance`, is QA's own act and kept).
    static func isPoll(_ method: HTTPRequest.Method, _ path: String) -> Bool {
        path == adminStatePath || (method == .get && path == adminClockPath)
    }

    /// A fault whose rule the policy does not keep is not applied: the request runs as if it were not set.
    private func applied(_ injection: FaultService.Injection, to request: Request) -> FaultService.Injection? {
        guard let rule = injection.action?.rule else { return injection }
        return gate.policy.enforces(rule, answering: request) ? injection : nil
    }

    private func answer(_ error: BackendError, _ context: AppContext) -> Response {
        context.decision.set(error.rule)
        return JSONReply.error(error, capture: context.capture)
    }

    /// A web page can send a cross-origin POST without a preflight only as text/plain, form data or with no
    /// type at all; refusing everything but JSON closes that door on every endpoint, the admin API included.
    /// GET and HEAD carry no body here, so their Content-Type does not matter.
    static func requireJSONBody(_ request: Request) throws {
        guard request.method != .get, request.method != .head else { return }
        if let type = request.headers.value(of: .contentType) {
            // The one exception: an uploaded world file (issue 33), behind the admin API's own checks.
            guard isJSON(type) || WorldFile.isUpload(request) else { throw BackendError.unsupportedMediaType }
            return
        }
        let declaredLength = request.headers.value(of: .contentLength).flatMap { Int($0) } ?? 0
        if declaredLength > 0 || request.headers.contains(.transferEncoding) {
            throw BackendError.unsupportedMediaType
        }
    }

    /// Over the UTF-8 bytes: every request asks this once or twice, and Foundation's trimming and
    /// lowercasing (through NSString) were a twelfth of a whole /health answer. Over one contiguous buffer
    /// rather than the string's views: slicing those cost 4.4 K instructions per GET /me/auth-methods (issue 34).
    static func isJSON(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            var start = 0
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            guard end - start == jsonMediaType.count else { return false }
            for (offset, wanted) in jsonMediaType.enumerated() {
                let byte = bytes[start + offset]
                let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                guard lowered == wanted else { return false }
            }
            return true
        }
    }

    private static let jsonMediaType = Array("application/json".utf8)

    private static let adminTokenField = HTTPField.Name(ReferenceBackend.adminTokenHeader)!

    /// The refusals of `handle` that read nothing of its world — admin access, the content type, a path and
    /// method no route answers — in the same order: what a request must pass before a world is made for it
    /// (`WorldsResponder`). `path`: the world's own path (after `/w/NAME`).
    func admit(_ request: Request, path: String, isAdmin: Bool) throws {
        if isAdmin { try authorizeAdmin(request) }
        try Self.requireJSONBody(request)
        let allowed = routes.allowedMethods(for: path)
        guard allowed.contains(request.method.rawValue) else {
            throw Self.map(HTTPError(.notFound), allowed: allowed)
        }
    }

    private func authorizeAdmin(_ request: Request) throws {
        switch admin {
        case .open:
            return
        case .disabled:
            // The generated routes include the admin API; with it off, it does not exist.
            throw BackendError.notFound()
        case .token(let expected):
            let presented = request.headers[Self.adminTokenField] ?? ""
            guard Secrets.constantTimeEquals(presented, expected) else { throw BackendError.adminTokenRequired }
        }
    }

    /// The part of a fault that comes before the route: a delay, an answer in its place, a closed
    /// connection. `runThenClose` acts after the route, in `handle`. Returns the answer of a `body` fault.
    private func applyBeforeHandling(
        _ injection: FaultService.Injection, context: AppContext
    ) async throws -> Response? {
        if let delay = injection.delay {
            // Real waiting is the point of a latency fault: it is what the app's spinners are tested with.
            try await Task.sleep(for: delay)
        }
        switch injection.action {
        case .answer(let error):
            throw error
        case .close(let rule):
            try? await context.channel.close()
            throw Self.unanswered(rule)
        case .hold(let rule):
            await Self.holdUntilClientGivesUp(context.channel)
            throw Self.unanswered(rule)
        case .body(let text, let status, let contentType, let rule):
            context.decision.set(rule)
            let body = ByteBuffer(string: text)
            context.capture.setResponseBody(body)
            return Response(
                status: HTTPResponse.Status(code: status), headers: [.contentType: contentType],
                body: .init(byteBuffer: body))
        case .runThenClose, .reshape, nil:
            return nil
        }
    }

    /// The answer `response` as a `reshape` fault sends it. Its head is kept but for the length, which is the
    /// new body's (for `reset`, the whole body's: the client learns it was cut off).
    private static func reshaped(
        _ response: Response, _ reshape: FaultService.Reshape, context: AppContext
    ) async -> Response {
        let channel = context.channel
        let body = await collected(response.body)
        var reshaped = response
        switch reshape {
        case .dribble(let span):
            let pieces = Self.pieces(of: body, count: FaultService.dribblePieces)
            let pause = span / max(pieces.count, 1)
            reshaped.body = ResponseBody(contentLength: body.readableBytes) { writer in
                for (index, piece) in pieces.enumerated() {
                    if index > 0 { try await Task.sleep(for: pause) }
                    try await writer.write(piece)
                }
                try await writer.finish(nil)
            }
        case .cut:
            let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2)!
            context.capture.setResponseBody(half)
            reshaped.body = ResponseBody(byteBuffer: half)
        case .wrongType:
            let mangled = ByteBuffer(bytes: Self.wrongTypes(Data(body.readableBytesView)))
            context.capture.setResponseBody(mangled)
            reshaped.body = ResponseBody(byteBuffer: mangled)
            if response.status == .noContent { reshaped.status = .ok }
            reshaped.headers[.contentType] = "application/json"
        case .reset:
            let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2)!
            reshaped.body = ResponseBody(contentLength: body.readableBytes) { writer in
                try await writer.write(half)
                // The client has the head and half the body it was promised; then the connection is gone.
                try? await channel.close()
                throw ConnectionReset()
            }
        }
        reshaped.headers[.contentLength] = reshaped.body.contentLength.map(String.init)
        return reshaped
    }

    /// Ends the writing of an answer a `reset` fault cut off.
    struct ConnectionReset: Error {}

    /// The whole of a body the route wrote.
    private static func collected(_ body: ResponseBody) async -> ByteBuffer {
        final class Collector: ResponseBodyWriter {
            var buffer = ByteBuffer()
            func write(_ buffer: ByteBuffer) async throws {
                var piece = buffer
                self.buffer.writeBuffer(&piece)
            }
            func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {
                for buffer in buffers { try await write(buffer) }
            }
            func finish(_ trailingHeaders: HTTPFields?) async throws {}
        }
        let collector = Collector()
        try? await body.write(collector)
        return collector.buffer
    }

    /// `body` in at most `count` pieces of about equal size, none empty.
    static func pieces(of body: ByteBuffer, count: Int) -> [ByteBuffer] {
        let total = body.readableBytes
        guard total > 0 else { return [body] }
        let size = (total + count - 1) / count
        return stride(from: 0, to: total, by: size).map { offset in
            body.getSlice(at: body.readerIndex + offset, length: min(size, total - offset))!
        }
    }

    /// A JSON object with each top-level member's value of another type (a string becomes a number, anything
    /// else a string); anything else becomes a string.
    static func wrongTypes(_ data: Data) -> Data {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return Data(#""not what the contract says""#.utf8)
        }
        let changed = object.mapValues { value -> Any in value is String ? 12345 : "\(value)" }
        return (try? JSONSerialization.data(withJSONObject: changed, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// What the journal records for a request closed without an answer: nothing reaches the client.
    private static func unanswered(_ rule: Rule) -> BackendError {
        BackendError(.serviceUnavailable, "offline", "Closed without an answer.", rule: rule)
    }

    /// Returns once the client hangs up, or after `FaultService.longestHold`, with the connection closed.
    private static func holdUntilClientGivesUp(_ channel: any Channel) async {
        if let watch = try? await channel.pipeline.handler(type: ConnectionHandler.self).map(\.hangUp).get() {
            watch.closeOnHangUp(channel)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await channel.closeFuture.get() }
            group.addTask { try? await Task.sleep(for: FaultService.longestHold) }
            await group.next()
            // Closing also ends the wait on `closeFuture`, which cancelling could not.
            try? await channel.close()
            group.cancelAll()
        }
    }

    /// `allowed`: the methods the request's path does answer, if any (then a 404 is really a 405).
    static func map(_ error: HTTPError, allowed: [String] = []) -> BackendError {
        switch error.status {
        case .notFound:
            if !allowed.isEmpty { return .methodNotAllowed(allowed: allowed) }
            return .notFound("No such endpoint.")
        case .contentTooLarge:
            return BackendError(
                .contentTooLarge, "payload_too_large", "The request body is too large.", rule: .httpPayloadTooLarge)
        case .methodNotAllowed:
            return BackendError(.methodNotAllowed, "method_not_allowed", "Method not allowed.", rule: .httpMethod)
        default:
            let code = error.status.code
            if (400..<500).contains(code) {
                return BackendError(
                    error.status, "bad_request", "The request could not be processed.",
                    rule: .httpBadRequest)
            }
            return BackendError(error.status, "internal", "Something went wrong. Try again.", rule: .httpInternal)
        }
    }
}
