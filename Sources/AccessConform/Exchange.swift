import AccessCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One request and its answer, as a check saw them. What is shown of it goes through AccessCore's
/// `Redaction` (the journal's own), so no token, password, code or link reaches the output.
public struct Exchange: Sendable {
    public var method: String
    public var path: String
    public var requestBody: Data?
    public var status: Int
    public var body: Data
    /// The response's header fields, names in lower case (a field sent twice: its values joined by ", ").
    public var headers: [String: String] = [:]

    /// The body as a JSON object, nil when it is not one.
    public var object: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    /// `error.code` of a refusal, only when it looks like one (lower-case letters and `_`): a code a backend
    /// echoed there by mistake is digits, and must not be printed.
    public var errorCode: String? {
        guard let code = (object?["error"] as? [String: Any])?["code"] as? String,
            !code.isEmpty, code.count <= 64, code.allSatisfy({ ("a"..."z").contains($0) || $0 == "_" })
        else { return nil }
        return code
    }

    public var errorMember: [String: Any]? { object?["error"] as? [String: Any] }

    /// The seconds a refusal asks to wait: its `error.retry_after`, else its `Retry-After` header.
    public var retryAfter: Double? {
        (errorMember?["retry_after"] as? NSNumber)?.doubleValue ?? headers["retry-after"].flatMap(Double.init)
    }

    /// `"401 code_incorrect"`: what came back, without any secret.
    public var summary: String {
        errorCode.map { "\(status) \($0)" } ?? "\(status)"
    }

    /// Request and response, secrets replaced by "[redacted]".
    public var redacted: String {
        let (route, query) = splitQuery(path)
        var lines = ["\(method) \(route)\(query.map { "?" + Redaction.query($0) } ?? "")"]
        if let requestBody, !requestBody.isEmpty {
            lines.append("  request: " + Redaction.json(Self.text(requestBody)))
        }
        lines.append("  response: \(status) " + (body.isEmpty ? "(no body)" : Redaction.json(Self.text(body))))
        return lines.joined(separator: "\n")
    }

    private static func text(_ data: Data) -> String { String(decoding: data.prefix(4096), as: UTF8.self) }

    private func splitQuery(_ path: String) -> (String, String?) {
        guard let mark = path.firstIndex(of: "?") else { return (path, nil) }
        return (String(path[..<mark]), String(path[path.index(after: mark)...]))
    }
}

/// Why a check stopped before it could say "kept".
enum CheckStop: Error {
    case broken(expected: String, got: String, evidence: [Exchange])
    case cannotTell(String)
    case skipped(String)
}

/// The HTTP side of the checks: JSON bodies, a bearer token and a re-auth token, nothing else.
public final class ConformHTTP: Sendable {
    public let baseURL: String
    let adminToken: String?
    let client: HTTPClient

    public init(baseURL: String, adminToken: String? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.adminToken = adminToken
        // A refused connection is an answer ("got no answer"), not a reason to retry until the request's deadline:
        // against a server that is down, each check would otherwise wait out its whole time-out.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    public func shutdown() async {
        try? await client.shutdown()
    }

    static func encode(_ body: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    func post(
        _ path: String, _ body: [String: Any], token: String? = nil, reauth: String? = nil
    ) async throws
        -> Exchange
    {
        try await send("POST", path, body: Self.encode(body), token: token, reauth: reauth)
    }

    func get(
        _ path: String, token: String? = nil, timeout: Double = ConformHTTP.defaultTimeout
    ) async throws
        -> Exchange
    {
        try await send("GET", path, token: token, timeout: timeout)
    }

    /// What a "got no answer" reason says when the client's time-out ended the wait (not a closed connection).
    static let timedOut = "timed out"

    /// How long a request waits for its answer unless a check says otherwise.
    static let defaultTimeout: Double = 30

    /// A transport failure (refused, reset, no answer within `timeout` seconds) is "cannot tell", never an
    /// answer; its reason says "got no answer", and "timed out" when the time-out ended the wait.
    func send(
        _ method: String, _ path: String, body: Data? = nil, token: String? = nil, reauth: String? = nil,
        contentType: String = "application/json", headers: [(String, String)] = [],
        timeout: Double = ConformHTTP.defaultTimeout
    ) async throws -> Exchange {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let reauth { request.headers.add(name: "X-Reauth-Token", value: reauth) }
        if path.hasPrefix("/_admin"), let adminToken { request.headers.add(name: "X-Admin-Token", value: adminToken) }
        for (name, value) in headers {
            // A header given twice is sent twice (how a check sends two Host headers).
            if headers.filter({ $0.0 == name }).count > 1 {
                request.headers.add(name: name, value: value)
            } else {
                request.headers.replaceOrAdd(name: name, value: value)
            }
        }
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            let buffer = try await response.body.collect(upTo: 4 * 1024 * 1024)
            var fields: [String: String] = [:]
            for field in response.headers {
                let name = field.name.lowercased()
                fields[name] = fields[name].map { $0 + ", " + field.value } ?? field.value
            }
            return Exchange(
                method: method, path: path, requestBody: body, status: Int(response.status.code),
                body: Data(buffer.readableBytesView), headers: fields)
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw CheckStop.cannotTell(
                "\(method) \(path.split(separator: "?").first ?? "") got no answer: \(Self.timedOut) after "
                    + "\(Int(timeout)) s")
        } catch {
            throw CheckStop.cannotTell(
                "\(method) \(path.split(separator: "?").first ?? "") got no answer (\(type(of: error)))")
        }
    }
}
