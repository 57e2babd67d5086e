import AccessAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Outermost layer: admin access, content type, faults, JSON errors for everything (404s, 405s and
/// framework errors included) and the journal entry for every request.
struct GatewayMiddleware: RouterMiddleware {
    typealias Context = AppContext

    let faults: FaultService
    let journal: JournalService
    let clock: BackendClock
    let admin: ReferenceBackend.AdminAccess
    let routes: RouteTable

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path
        let response: Response
        do {
            if path.hasPrefix("/_admin") {
                try authorizeAdmin(request)
            } else {
                try await applyFaults(path: path, context: context)
            }
            try Self.requireJSONBody(request)
            response = try await next(request, context)
            if context.decision.value == nil { context.decision.set("ok") }
        } catch let error as BackendError {
            context.decision.set(error.rule)
            response = JSONReply.error(error)
        } catch let error as HTTPError {
            let mapped = Self.map(error, allowed: routes.allowedMethods(for: path))
            context.decision.set(mapped.rule)
            response = JSONReply.error(mapped)
        } catch is HTTPParserError {
            // The body broke off in a way NIO's parser refuses, after the route had started reading it.
            let refused = BackendError.badRequest("The request body's framing is invalid.")
            context.decision.set(refused.rule)
            response = JSONReply.error(refused)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Never the error's text: it could quote input.
            context.logger.error("unhandled error", metadata: ["type": "\(type(of: error))", "path": "\(path)"])
            context.decision.set("http.internal")
            response = JSONReply.error(
                BackendError(
                    .internalServerError, "internal", "Something went wrong. Try again.", rule: "http.internal"))
        }
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        journal.record(
            JournalEntry(
                id: 0, at: clock.now(), method: request.method.rawValue, path: path, status: response.status.code,
                ms: (ms * 1000).rounded() / 1000, rule: context.decision.value ?? "ok"))
        return response
    }

    /// A web page can send a cross-origin POST without a preflight only as text/plain, form data or with no
    /// type at all; refusing everything but JSON closes that door on every endpoint, the admin API included.
    /// GET and HEAD carry no body here, so their Content-Type does not matter.
    static func requireJSONBody(_ request: Request) throws {
        guard request.method != .get, request.method != .head else { return }
        if let type = request.headers[.contentType] {
            guard isJSON(type) else { throw BackendError.unsupportedMediaType }
            return
        }
        let declaredLength = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        if declaredLength > 0 || request.headers[.transferEncoding] != nil {
            throw BackendError.unsupportedMediaType
        }
    }

    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return media.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    private static let adminTokenField = HTTPField.Name(ReferenceBackend.adminTokenHeader)!

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

    private func applyFaults(path: String, context: AppContext) async throws {
        let settings = faults.current
        if settings.offline == FaultService.Offline.drop.rawValue {
            context.decision.set("fault.offline_drop")
            try? await context.channel.close()
            throw BackendError(.serviceUnavailable, "offline", "Service unavailable.", rule: "fault.offline_drop")
        }
        if settings.offline == FaultService.Offline.serviceUnavailable.rawValue {
            throw BackendError(
                .serviceUnavailable, "offline", "No connection. Check your internet and try again.",
                rule: "fault.offline")
        }
        if let latency = settings.latencyMs, latency > 0 {
            // Real waiting is the point of a latency fault: it is what the app's spinners are tested with.
            try await Task.sleep(for: .milliseconds(latency))
        }
        if let fault = settings.statuses?.first(where: { $0.path == path }) {
            var error = BackendError(
                HTTPResponse.Status(code: fault.status), "fault_injected", "Injected failure for \(path).",
                rule: "fault.status")
            // The contract promises Retry-After on every 429, injected ones included.
            if fault.status == 429 { error.detail.retryAfter = 30 }
            throw error
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
                .contentTooLarge, "payload_too_large", "The request body is too large.", rule: "http.payload_too_large")
        case .methodNotAllowed:
            return BackendError(.methodNotAllowed, "method_not_allowed", "Method not allowed.", rule: "http.method")
        default:
            let code = error.status.code
            if (400..<500).contains(code) {
                return BackendError(
                    error.status, "bad_request", "The request could not be processed.",
                    rule: "http.bad_request")
            }
            return BackendError(error.status, "internal", "Something went wrong. Try again.", rule: "http.internal")
        }
    }
}
