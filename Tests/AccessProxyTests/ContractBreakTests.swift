import AccessBackend
import AccessBackendTesting
import AccessCore
import AccessProxy
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

/// Issue 52 item 2: every exchange held to openapi.yaml — the operation, the status, the body's schema, the
/// required headers. A backend double breaks the contract in the ways a staging backend does; the reference
/// backend keeps it.
@Suite struct ContractBreakTests {
    static func answer(
        _ status: Int, _ contentType: String?, _ body: String, headers: HTTPFields = [:]
    )
        -> @Sendable (Request, BasicRequestContext) async throws -> Response
    {
        { _, _ in
            var fields = headers
            if let contentType { fields[.contentType] = contentType }
            return Response(
                status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
    }

    /// The breaks the proxy found in one exchange: `path` asked with `method` of a double that answers `route`.
    static func breaks(
        _ method: HTTPRequest.Method, _ path: String, headers: [(String, String)] = [], body: String? = nil,
        answering route: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response
    ) async throws -> [ContractBreak] {
        let router = Router()
        router.on(RouterPath(String(path.prefix { $0 != "?" })), method: method, use: route)
        return try await BackendDouble.with(router) { upstream in
            try await withProxy(upstream: upstream) { proxy in
                var request = HTTPClientRequest(url: proxy.baseURL + path)
                request.method = .init(rawValue: method.rawValue)
                for (name, value) in headers { request.headers.add(name: name, value: value) }
                if let body {
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.body = .bytes(ByteBuffer(string: body))
                }
                let response = try await plainClient.execute(request, timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 1 << 20)
                await proxy.log.waitForExchanges(1)
                return proxy.log.contractBreaks
            }
        }
    }

    @Test func aStatusTheOperationDoesNotListIsABreak() async throws {
        let found = try await Self.breaks(
            .get, "/health", answering: Self.answer(201, "application/json", #"{"status":"ok"}"#))
        #expect(found.map(\.kind) == [.unlistedStatus])
        #expect(found.first?.operation == "health")
        #expect(found.first?.exchange.status == 201)
    }

    @Test func anHTML502FromAGatewayIsABreak() async throws {
        let found = try await Self.breaks(
            .get, "/me/auth-methods",
            answering: Self.answer(502, "text/html", "<html><body>Bad Gateway</body></html>"))
        #expect(found.map(\.kind) == [.unlistedStatus])
        #expect(found.first?.operation == "getAuthMethods")
        #expect(found.first?.exchange.responseBody == Redaction.notJSON)
    }

    @Test func anHTMLPageWhereTheContractSaysJSONIsABreak() async throws {
        let found = try await Self.breaks(.get, "/health", answering: Self.answer(200, "text/html", "<p>ok</p>"))
        #expect(found.map(\.kind) == [.wrongContentType])
    }

    @Test func aMissingMemberIsABreakNamingIt() async throws {
        let found = try await Self.breaks(.get, "/health", answering: Self.answer(200, "application/json", "{}"))
        #expect(found.map(\.kind) == [.bodyMismatch])
        #expect(found.first?.message.contains("member status is missing") == true)
    }

    @Test func aMemberOfTheWrongTypeIsABreakNamingIt() async throws {
        let found = try await Self.breaks(
            .get, "/health", answering: Self.answer(200, "application/json", #"{"status":5}"#))
        #expect(found.map(\.kind) == [.bodyMismatch])
        #expect(found.first?.message.contains("member status is not of type") == true)
    }

    @Test func aValueTheSchemaDoesNotAllowIsABreak() async throws {
        let found = try await Self.breaks(
            .get, "/health", answering: Self.answer(200, "application/json", #"{"status":"sleepy"}"#))
        #expect(found.map(\.kind) == [.bodyMismatch])
        #expect(found.first?.message.contains("sleepy") == false)
    }

    /// The contract's ErrorCode is extensible: a code it does not list yet is the server's right.
    @Test func anErrorCodeTheContractDoesNotListIsNoBreak() async throws {
        let found = try await Self.breaks(
            .get, "/me/auth-methods",
            answering: Self.answer(
                401, "application/json", #"{"error":{"code":"brand_new_code","message":"Sign in again."}}"#))
        #expect(found.isEmpty)
    }

    @Test func a429WithoutRetryAfterIsABreak() async throws {
        let limited = #"{"error":{"code":"rate_limited","message":"Wait.","retry_after":30}}"#
        let found = try await Self.breaks(
            .post, "/auth/phone/request-otp", body: #"{"phone":"+15555550100","purpose":"change_phone"}"#,
            answering: Self.answer(429, "application/json", limited))
        #expect(found.map(\.kind) == [.missingHeader])
        let kept = try await Self.breaks(
            .post, "/auth/phone/request-otp", body: #"{"phone":"+15555550100","purpose":"change_phone"}"#,
            answering: Self.answer(429, "application/json", limited, headers: [.retryAfter: "30"]))
        #expect(kept.isEmpty)
    }

    @Test func aPathNoOperationHasIsABreak() async throws {
        let found = try await Self.breaks(
            .get, "/me/secret-page", answering: Self.answer(200, "application/json", "{}"))
        #expect(found.map(\.kind) == [.unknownOperation])
        #expect(found.first?.operation == nil)
    }

    /// The exchange a break carries is redacted as the journal redacts: no token, code or password in it.
    @Test func theExchangeOfABreakIsRedacted() async throws {
        let found = try await Self.breaks(
            .post, "/auth/phone/verify-otp?code=123456",
            headers: [("Authorization", "Bearer live-session-token")],
            body: #"{"request_id":"r1","code":"654321"}"#,
            answering: Self.answer(200, "application/json", #"{"access_token":"minted-token"}"#))
        let exchange = try #require(found.first?.exchange)
        let text = String(decoding: try JSONEncoder().encode(found), as: UTF8.self)
        for secret in ["live-session-token", "123456", "654321", "minted-token"] {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
        #expect(exchange.requestHeaders.contains { $0.name == "Authorization" && $0.value == Redaction.placeholder })
        #expect(exchange.target == "/auth/phone/verify-otp?code=\(Redaction.placeholder)")
    }

    /// Real traffic of the reference backend, successes and refusals, is no break.
    @Test func theReferenceBackendsAnswersAreNoBreaks() async throws {
        try await TestBackend.with { backend in
            try await withProxy(upstream: backend.running.baseURL) { proxy in
                let session = try await backend.signIn()
                let calls: [(String, String?)] = [
                    ("/health", nil), ("/me/auth-methods", session.accessToken), ("/me/auth-methods", nil),
                    ("/auth/me", session.accessToken), ("/me/sessions", session.accessToken),
                    ("/me/delete-preflight", session.accessToken),
                ]
                for (path, token) in calls {
                    var request = HTTPClientRequest(url: proxy.baseURL + path)
                    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
                    let response = try await plainClient.execute(request, timeout: .seconds(30))
                    _ = try await response.body.collect(upTo: 4 << 20)
                }
                await proxy.log.waitForExchanges(calls.count)
                #expect(proxy.log.contractBreaks.map { "\($0.kind) \($0.operation ?? "") \($0.message)" } == [])
            }
        }
    }
}
