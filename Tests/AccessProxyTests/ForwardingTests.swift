import AccessAPI
import AccessBackend
import AccessBackendTesting
import AccessProxy
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Testing

/// Issue 52 item 1: every request forwarded as sent, every answer returned as received, and the proxy's door kept
/// as `serve` keeps its own.
@Suite struct ForwardingTests {
    /// What the double saw of a request, sent back as its body.
    struct Seen: Codable {
        var method: String
        var target: String
        var headers: [String: [String]]
        var body: String
    }

    static func echo() -> Router<BasicRequestContext> {
        let router = Router()
        router.on("/echo", method: .post) { request, context -> Response in
            var headers: [String: [String]] = [:]
            for field in request.headers { headers[field.name.canonicalName, default: []].append(field.value) }
            // HTTPTypes keeps Host apart, as the request's authority.
            if let authority = request.head.authority { headers["host"] = [authority] }
            let body = try await request.body.collect(upTo: 1 << 20)
            let seen = Seen(
                method: request.method.rawValue, target: request.uri.description, headers: headers,
                body: String(buffer: body))
            var answer = HTTPFields()
            answer[.contentType] = "application/json"
            answer.append(HTTPField(name: .init("X-Answer")!, value: "one"))
            answer.append(HTTPField(name: .init("X-Answer")!, value: "two"))
            answer[.setCookie] = "a=b"
            return Response(
                status: .init(code: 299, reasonPhrase: "Odd"), headers: answer,
                body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(seen))))
        }
        router.get("/moved") { _, _ in
            Response(status: .found, headers: [.location: "/elsewhere"])
        }
        return router
    }

    @Test func aRequestGoesAsSentAndItsAnswerComesBackAsReceived() async throws {
        try await BackendDouble.with(Self.echo()) { upstream in
            try await withProxy(upstream: upstream) { proxy in
                var request = HTTPClientRequest(url: proxy.baseURL + "/echo?x=1&y=%20")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer t")
                request.headers.add(name: "X-Many", value: "1")
                request.headers.add(name: "X-Many", value: "2")
                // A header of this connection only (RFC 9110 §7.6.1): not forwarded, nor the Connection naming it.
                request.headers.add(name: "Connection", value: "X-Hop")
                request.headers.add(name: "X-Hop", value: "secret-to-this-hop")
                request.body = .bytes(ByteBuffer(string: #"{"phone":"+1"}"#))
                let response = try await plainClient.execute(request, timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 20)
                #expect(response.status.code == 299)
                // The reason phrase as the upstream's own answer carries it.
                var direct = HTTPClientRequest(url: upstream + "/echo")
                direct.method = .POST
                let alone = try await plainClient.execute(direct, timeout: .seconds(30))
                _ = try await alone.body.collect(upTo: 1 << 20)
                #expect(response.status.reasonPhrase == alone.status.reasonPhrase)
                #expect(response.headers["X-Answer"] == ["one", "two"])
                #expect(response.headers["Set-Cookie"] == ["a=b"])
                let seen = try JSONDecoder().decode(Seen.self, from: Data(body.readableBytesView))
                #expect(seen.method == "POST")
                #expect(seen.target == "/echo?x=1&y=%20")
                #expect(seen.body == #"{"phone":"+1"}"#)
                #expect(seen.headers["authorization"] == ["Bearer t"])
                #expect(seen.headers["x-many"] == ["1", "2"])
                #expect(seen.headers["x-hop"] == nil)
                #expect(seen.headers["connection"]?.contains("X-Hop") != true)
                // Host names the upstream, as any client of the upstream would send it.
                #expect(seen.headers["host"] == [String(upstream.dropFirst("http://".count))])
            }
        }
    }

    @Test func aRedirectIsPassedOnNotFollowed() async throws {
        try await BackendDouble.with(Self.echo()) { upstream in
            try await withProxy(upstream: upstream) { proxy in
                let response = try await plainClient.execute(
                    HTTPClientRequest(url: proxy.baseURL + "/moved"), timeout: .seconds(30))
                #expect(response.status.code == 302)
                #expect(response.headers["Location"] == ["/elsewhere"])
            }
        }
    }

    /// The first part of an answer reaches the client while the upstream still holds back the rest: a proxy that
    /// collected the body first would never hand over the first part, and the wait below would end the test.
    @Test func anAnswerStreamsThroughPartByPart() async throws {
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let router = Router()
        router.get("/stream") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "first;"))
                    for await _ in release { break }
                    try await writer.write(ByteBuffer(string: "second"))
                    try await writer.finish(nil)
                })
        }
        try await BackendDouble.with(router) { upstream in
            try await withProxy(upstream: upstream) { proxy in
                let response = try await plainClient.execute(
                    HTTPClientRequest(url: proxy.baseURL + "/stream"), timeout: .seconds(30))
                var parts = response.body.makeAsyncIterator()
                let first = try await parts.next()
                #expect(first.map { String(buffer: $0) } == "first;")
                releaseContinuation.yield()
                var rest = ""
                while let part = try await parts.next() { rest += String(buffer: part) }
                #expect(rest == "second")
            }
        }
    }

    /// A request body the client streams (chunked, no length) reaches the upstream whole.
    @Test func aChunkedRequestBodyIsForwardedWhole() async throws {
        try await BackendDouble.with(Self.echo()) { upstream in
            try await withProxy(upstream: upstream) { proxy in
                var request = HTTPClientRequest(url: proxy.baseURL + "/echo")
                request.method = .POST
                let (parts, sending) = AsyncStream<ByteBuffer>.makeStream()
                sending.yield(ByteBuffer(string: #"{"a":"#))
                sending.yield(ByteBuffer(string: "1}"))
                sending.finish()
                request.body = .stream(parts, length: .unknown)
                let response = try await plainClient.execute(request, timeout: .seconds(30))
                let seen = try JSONDecoder().decode(
                    Seen.self, from: Data(try await response.body.collect(upTo: 1 << 20).readableBytesView))
                #expect(seen.body == #"{"a":1}"#)
            }
        }
    }

    @Test func anUpstreamThatCannotBeReachedIsA502WithAJSONError() async throws {
        // A port that was just free: nothing listens on it.
        let closed = try await BackendDouble.with(Router()) { $0 }
        try await withProxy(upstream: closed) { proxy in
            let answer = try await RawHTTP.exchange(port: proxy.port, RawHTTP.request("GET", "/health"))
            #expect(answer.status == 502)
            #expect(RawHTTP.error(of: answer) == nil)  // not one of the contract's codes: the proxy's own
            struct Failure: Decodable {
                struct Detail: Decodable {
                    let code: String
                    let message: String
                }
                let error: Detail
            }
            #expect(try JSONDecoder().decode(Failure.self, from: answer.body).error.code == "upstream_unreachable")
        }
    }

    /// The reference backend through the proxy answers as it does directly.
    @Test func theReferenceBackendAnswersThroughTheProxyAsItDoesDirectly() async throws {
        try await TestBackend.with { backend in
            try await withProxy(upstream: backend.running.baseURL) { proxy in
                let direct = try await backend.get("/health")
                let response = try await plainClient.execute(
                    HTTPClientRequest(url: proxy.baseURL + "/health"), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 20)
                #expect(Int(response.status.code) == direct.status)
                #expect(Data(body.readableBytesView) == direct.data)
                #expect(response.headers["Content-Type"] == direct.headers["Content-Type"])
            }
        }
    }

    // MARK: The door: `serve`'s gate and admin rules

    @Test func aLoopbackProxyRefusesAHostThatIsNotLoopback() async throws {
        try await BackendDouble.with(Self.echo()) { upstream in
            try await withProxy(upstream: upstream) { proxy in
                let answer = try await RawHTTP.exchange(
                    port: proxy.port, RawHTTP.request("POST", "/echo", host: "rebound.example"))
                #expect(answer.status == 403)
                #expect(RawHTTP.error(of: answer)?.error.code == .hostNotAllowed)
            }
        }
    }

    @Test func theBackendsAdminAPIThroughTheProxyNeedsTheProxysToken() async throws {
        try await TestBackend.with { backend in
            let token = String(repeating: "t", count: ReferenceBackend.minimumAdminTokenLength)
            try await withProxy(upstream: backend.running.baseURL, admin: .token(token)) { proxy in
                let refused = try await RawHTTP.exchange(port: proxy.port, RawHTTP.request("GET", "/_admin/clock"))
                #expect(refused.status == 401)
                #expect(RawHTTP.error(of: refused)?.error.code == .adminTokenRequired)
                let allowed = try await RawHTTP.exchange(
                    port: proxy.port,
                    RawHTTP.request("GET", "/_admin/clock", headers: [(ReferenceBackend.adminTokenHeader, token)]))
                #expect(allowed.status == 200)
            }
            try await withProxy(upstream: backend.running.baseURL, admin: .disabled) { proxy in
                let hidden = try await RawHTTP.exchange(port: proxy.port, RawHTTP.request("GET", "/_admin/clock"))
                #expect(hidden.status == 404)
            }
        }
    }

    @Test func anUpstreamMustBeAnHTTPOrHTTPSURL() throws {
        #expect(throws: AccessProxy.ConfigurationError.self) { try AccessProxy.upstream("ftp://example.com") }
        #expect(throws: AccessProxy.ConfigurationError.self) { try AccessProxy.upstream("example.com") }
        #expect(throws: AccessProxy.ConfigurationError.self) { try AccessProxy.upstream("http://x.example/?a=1") }
        #expect(try AccessProxy.upstream("https://x.example/api/").absoluteString == "https://x.example/api")
    }

    @Test func aNonLoopbackProxyNeedsAnAdminTokenOrNoAdmin() async throws {
        await #expect(throws: ReferenceBackend.ConfigurationError.self) {
            _ = try await AccessProxy.start(
                .init(upstream: try AccessProxy.upstream("http://127.0.0.1:9"), host: "0.0.0.0", admin: .open))
        }
    }
}
