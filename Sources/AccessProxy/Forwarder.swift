import AccessAPI
import AccessBackend
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOSSL

/// Forwards each request to the upstream as sent and returns its answer as received: method, path and query,
/// headers (but those of one connection, RFC 9110 §7.6.1, and Host, which names the upstream), status and body,
/// both bodies streamed through as they come. What the proxy cannot get from the upstream is its own JSON error:
/// 502 when the upstream cannot be reached, breaks off or shows a certificate the proxy does not trust, 504 when it
/// does not answer in time.
struct Forwarder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// How long an exchange may take upstream, its body included, before the proxy answers 504.
    static let upstreamTimeout: TimeAmount = .seconds(60)
    /// A new connection to the upstream, TLS handshake included.
    static let connectTimeout: TimeAmount = .seconds(10)

    /// Redirects and decompression are the app's business: the proxy passes a 3xx and a compressed body on. An
    /// https upstream is checked against `trustRoots` alone when given (`--upstream-ca`), else the system's.
    static func clientConfiguration(trustRoots: [NIOSSLCertificate]? = nil) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        if let trustRoots {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(trustRoots)
            configuration.tlsConfiguration = tls
        }
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout.connect = connectTimeout
        configuration.httpVersion = .http1Only
        return configuration
    }

    let upstream: URL
    let client: HTTPClient
    let gate: FrontGate
    let log: ProxyLog
    let worldStyle: Bool

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let isFindings = request.uri.path == Self.findingsPath
        if let refusal = gate.refusal(
            request, isAdmin: isFindings || FrontGate.isBackendAdmin(path: request.uri.path))
        {
            return refusal
        }
        // The proxy's own: never forwarded, never counted as an exchange.
        if isFindings { return findings(request) }
        let number = log.begin()
        var outgoing = HTTPClientRequest(url: upstream.absoluteString + request.uri.description)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        let dropped = Self.connectionFields(request.headers)
        var sent: [(name: String, value: String)] = []
        for field in request.headers
        where !dropped.contains(field.name.canonicalName) && field.name.canonicalName != "host" {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
            sent.append((field.name.rawName, field.value))
        }
        let requestCopy = BodyCopy()
        let requestBody = CopiedBody(base: request.body, copy: requestCopy)
        if let length = request.headers[.contentLength].flatMap(Int64.init) {
            outgoing.body = .stream(requestBody, length: .known(length))
        } else if request.headers[.transferEncoding] != nil {
            outgoing.body = .stream(requestBody, length: .unknown)
        }
        let answer: HTTPClientResponse
        do {
            answer = try await client.execute(outgoing, timeout: Self.upstreamTimeout)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return Self.failure(.gatewayTimeout, "upstream_timeout", "The backend did not answer in time.")
        } catch is CancellationError {
            throw CancellationError()
        } catch  where Self.isUntrusted(error) {
            return Self.failure(
                .badGateway, "upstream_untrusted",
                "The backend's certificate is not trusted (the system's certificates, or --upstream-ca when given).")
        } catch {
            return Self.failure(.badGateway, "upstream_unreachable", "The proxy could not reach the backend.")
        }
        var headers = HTTPFields()
        let droppedAnswer = Self.connectionFields(answer.headers)
        for (name, value) in answer.headers where !droppedAnswer.contains(name.lowercased()) {
            guard let field = HTTPField.Name(name) else { continue }
            // Passed on as the upstream sent it: Hummingbird would write the proxy's own wall clock in its place.
            headers.append(HTTPField(name: field == .date ? FrontDoor<Forwarder>.dateField : field, value: value))
        }
        // The client learns which exchange this was, the number the findings cite (the app's F3 marks it).
        headers[values: Self.exchangeField] = [String(number)]
        let arrival = Date()
        let received = answer.headers.map { (name: $0.name, value: $0.value) }
        let forwarded = sent
        let (world, path) = worldStyle ? WorldStyle.split(request.uri.path) : (nil, request.uri.path)
        let (method, target, status) = (request.method.rawValue, request.uri.description, Int(answer.status.code))
        // Once the answer's last part has gone through: the exchange is whole and can be checked.
        let responseCopy = BodyCopy(onEnd: { [log] responseKept in
            let requestKept = requestCopy.kept
            let exchange = ProxyExchange(
                number: number, method: method, target: ProxyExchange.redacted(target: target), status: status,
                requestHeaders: ProxyExchange.redacted(forwarded), responseHeaders: ProxyExchange.redacted(received),
                requestBody: ProxyExchange.redacted(body: requestKept),
                responseBody: ProxyExchange.redacted(body: responseKept))
            // The rules read the exchange as it passed, secrets and all, and keep only their digests.
            let observed = Observation.read(
                number: number, method: method, path: path, requestHeaders: forwarded,
                requestBody: requestKept.isWhole ? requestKept.bytes : [], status: status, responseHeaders: received,
                responseBody: responseKept.isWhole ? responseKept.bytes : nil, arrival: arrival, digest: log.digest,
                world: world)
            log.finish(
                breaks: ContractCheck.breaks(
                    exchange, path: path, responseHeaders: received,
                    responseBody: responseKept.isWhole ? responseKept.bytes : nil),
                observed: observed, exchange: exchange, path: path)
        })
        return Response(
            status: .init(code: status, reasonPhrase: answer.status.reasonPhrase), headers: headers,
            body: ResponseBody(asyncSequence: CopiedBody(base: answer.body, copy: responseCopy)))
    }

    /// Added to every forwarded answer: the exchange's number. The contract checks read the upstream's headers,
    /// so the proxy's own is never a break.
    static let exchangeField = HTTPField.Name(ProxyFindingsDigest.exchangeHeader)!

    /// What the proxy found so far, as JSON (`ProxyFindings`): the proxy's own admin API, behind the same gate
    /// and admin token as the backend's `/_admin`.
    static let findingsPath = "/_proxy/findings"

    private func findings(_ request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.failure(.methodNotAllowed, "method_not_allowed", "Only GET reads the findings.")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(log.findings)) ?? Data()
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The fields of one connection, which are not forwarded (RFC 9110 §7.6.1): the standard ones and those the
    /// message's Connection header names. Lower-cased.
    static func connectionFields(_ fields: HTTPFields) -> Set<String> {
        var names = hopByHop
        for value in fields[values: .connection] { names.formUnion(tokens(value)) }
        return names
    }

    static func connectionFields(_ headers: HTTPHeaders) -> Set<String> {
        var names = hopByHop
        for value in headers["Connection"] { names.formUnion(tokens(value)) }
        return names
    }

    private static func tokens(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade",
    ]

    /// A TLS handshake the proxy refused: the upstream's certificate does not chain to a trusted root, or does not
    /// name the upstream's host.
    static func isUntrusted(_ error: any Error) -> Bool {
        if let error = error as? NIOSSLExtraError { return error == .failedToValidateHostname }
        guard case NIOSSLError.handshakeFailed(.sslError(let errors)) = error else { return false }
        // BoringSSL's reason for a chain it could not verify.
        return errors.contains { $0.description.contains("CERTIFICATE_VERIFY_FAILED") }
    }

    /// The proxy's own error, in the backend's shape: `{"error":{"code":…,"message":…}}`.
    static func failure(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
            }
            let error: Detail
        }
        let data = (try? JSONEncoder().encode(Body(error: .init(code: code, message: message)))) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
