import AccessAPI
import AccessCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// What the layers inside the gateway tell the journal about one request: the body as the contract layer
/// read it, the answer's body as it was sent, the fault injected. Shared by reference, like `Decision`, because
/// contexts are passed by value. Holds buffers as they are (no copy); redaction happens once, when the
/// gateway writes the entry.
final class JournalCapture: Sendable {
    private struct State {
        var requestBody: ByteBuffer?
        var responseBody: ByteBuffer?
        var responseHoldsNoSecret = false
        var fault: String?
        var user: String?
    }
    private let state = Mutex(State())

    func setRequestBody(_ body: ByteBuffer) { state.withLock { $0.requestBody = body } }

    /// `holdsNoSecret`: the maker of `body` knows the redactor would leave it as it is (`AuthMethodsJSON`), so
    /// the journal keeps its text without scanning it; a body longer than the journal keeps is scanned anyway.
    func setResponseBody(_ body: ByteBuffer, holdsNoSecret: Bool = false) {
        state.withLock { state in
            state.responseBody = body
            state.responseHoldsNoSecret = holdsNoSecret
        }
    }
    func setFault(_ name: String) { state.withLock { $0.fault = name } }

    /// The user the request acted for: its session's, or the one a sign-in issued a session to (issue 51, 49.5).
    func setUser(_ id: String) { state.withLock { $0.user = id } }

    var fault: String? { state.withLock { $0.fault } }

    /// Bodies and headers in a journal are cut to this.
    static let maxBodyBytes = 4 * 1024
    static let maxHeaderValue = 1024
    static let maxRequestID = 200

    /// The journal's redacted view of the request and its answer.
    func entry(
        request: Request, path: String, responseStatus: Int, responseIsJSON: Bool, at: Date, ms: Double, rule: Rule
    ) -> JournalService.Pending {
        let (requestBody, responseBody, responseHoldsNoSecret, fault, user) = state.withLock {
            ($0.requestBody, $0.responseBody, $0.responseHoldsNoSecret, $0.fault, $0.user)
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(request.headers.count)
        for field in request.headers {
            let name = field.name.canonicalName
            headers.append((name, Self.cut(Redaction.headerValue(name: name, value: field.value))))
        }
        let requestIsJSON = request.headers.value(of: .contentType).map(GatewayMiddleware.isJSON) ?? false
        let entry = JournalEntry(
            id: 0,
            requestId: request.headers.value(of: Self.requestIDField).map { String($0.prefix(Self.maxRequestID)) },
            at: at, method: request.method.rawValue, path: path,
            query: request.uri.query.flatMap { $0.isEmpty ? nil : Redaction.query($0) }, status: responseStatus,
            ms: ms, rule: rule.rawValue, user: user, fault: fault, requestHeaders: .init(additionalProperties: [:]))
        return JournalService.Pending(
            entry: entry, requestHeaders: headers,
            requestBody: requestIsJSON ? requestBody.flatMap { Self.redacted($0) } : nil,
            responseBody: responseIsJSON
                ? responseBody.flatMap { Self.redacted($0, holdsNoSecret: responseHoldsNoSecret) } : nil)
    }

    static let requestIDField = HTTPField.Name("X-Request-ID")!

    private static func redacted(_ body: ByteBuffer, holdsNoSecret: Bool = false) -> JournalService.RedactedBody? {
        guard body.readableBytes > 0 else { return nil }
        if holdsNoSecret, body.readableBytes <= maxBodyBytes { return .init(text: String(buffer: body), isWhole: true) }
        return body.withUnsafeReadableBytes { bytes in
            Redaction.jsonReportingCut(bytes, maxBytes: maxBodyBytes).map { .init(text: $0.text, isWhole: $0.isWhole) }
                ?? .init(text: Redaction.notJSON, isWhole: false)
        }
    }

    private static func cut(_ value: String) -> String {
        value.utf8.count <= maxHeaderValue ? value : String(value.prefix(maxHeaderValue))
    }
}
