import AccessAPI
import Foundation
import Hummingbird

/// Outermost layer: faults, JSON errors for everything (404s and framework errors included) and the
/// journal entry for every request.
struct GatewayMiddleware: RouterMiddleware {
    typealias Context = AppContext

    let faults: FaultService
    let journal: JournalService
    let clock: BackendClock

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path
        let response: Response
        do {
            if !path.hasPrefix("/_admin") { try await applyFaults(path: path, context: context) }
            response = try await next(request, context)
            if context.decision.value == nil { context.decision.set("ok") }
        } catch let error as BackendError {
            context.decision.set(error.rule)
            response = JSONReply.error(error)
        } catch let error as HTTPError {
            let mapped = Self.map(error)
            context.decision.set(mapped.rule)
            response = JSONReply.error(mapped)
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
                at: clock.now(), method: request.method.rawValue, path: path, status: response.status.code,
                ms: (ms * 1000).rounded() / 1000, rule: context.decision.value ?? "ok"))
        return response
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

    static func map(_ error: HTTPError) -> BackendError {
        switch error.status {
        case .notFound:
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
