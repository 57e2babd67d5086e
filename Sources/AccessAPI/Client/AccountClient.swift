import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Talks to any backend that speaks the contract (`openapi.yaml`): ours or a real one.
/// One typed method per endpoint lives in the extensions; this file is the transport:
/// tokens, one refresh-and-retry on 401, time-outs, retries for GETs, the journal.
public final class AccountClient: Sendable {
    public struct Configuration: Sendable {
        /// Where the contract's paths start, with any prefix: `http://127.0.0.1:8080` or
        /// `https://api.example.com/api/v1`.
        public var baseURL: String
        public var connectTimeout: Duration = .seconds(2)
        public var requestTimeout: Duration = .seconds(10)
        /// Waits before each retry of a GET that got no answer (or a 502/503/504).
        public var getRetryDelays: [Duration] = [.milliseconds(200), .milliseconds(800)]

        public init(baseURL: String) {
            var trimmed = baseURL
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            self.baseURL = trimmed
        }
    }

    public let configuration: Configuration
    public let journal: RequestJournal
    let keeper: SessionKeeper
    private let http: HTTPClient
    private let logger: Logger
    private let sleep: @Sendable (Duration) async throws -> Void

    /// `sleep` waits between GET retries; tests pass one that returns at once.
    public init(
        configuration: Configuration, sessionStore: SessionStore?, initialSession: SessionTokens? = nil,
        logger: Logger = Logger(label: "accessdeck.client"),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.logger = logger
        self.sleep = sleep
        journal = RequestJournal()
        keeper = SessionKeeper(store: sessionStore, initial: initialSession)
        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.timeout = .init(connect: TimeAmount(configuration.connectTimeout))
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
    }

    /// Loads the saved session, if any; a damaged file is removed and reported.
    public static func restoringSession(
        configuration: Configuration, sessionStore: SessionStore, logger: Logger = Logger(label: "accessdeck.client")
    ) -> (client: AccountClient, problem: SessionStoreError?) {
        do {
            let tokens = try sessionStore.load()
            return (
                AccountClient(configuration: configuration, sessionStore: sessionStore, initialSession: tokens), nil
            )
        } catch let error as SessionStoreError {
            sessionStore.clear()
            return (AccountClient(configuration: configuration, sessionStore: sessionStore), error)
        } catch {
            return (AccountClient(configuration: configuration, sessionStore: sessionStore), nil)
        }
    }

    public func shutdown() async { try? await http.shutdown() }

    public var isSignedIn: Bool { get async { await keeper.current != nil } }
    public var userId: String? { get async { await keeper.current?.userId } }

    /// Keeps new tokens (after a sign-in) in memory and in the session file.
    public func adopt(_ tokens: SessionTokens) async throws { try await keeper.replace(with: tokens) }

    public func signOutLocally() async { await keeper.clear() }

    // MARK: - Transport

    enum Auth: Sendable {
        case none
        case session
    }

    /// Sends one call and decodes its answer. Throws only `APIError`.
    func send<Response: Decodable>(
        _ method: HTTPMethod, _ path: String, body: (some Encodable & Sendable)? = Empty?.none, auth: Auth = .session,
        reauthToken: String? = nil, as type: Response.Type = Response.self
    ) async throws -> Response {
        let payload: Data?
        do {
            payload = try body.map { try APIJSON.makeEncoder().encode($0) }
        } catch {
            throw APIError.invalid(fieldErrors: [], message: "The request could not be encoded.")
        }
        let (status, data) = try await sendAuthorized(
            method, path, payload: payload, auth: auth, reauthToken: reauthToken)
        if Response.self == Empty.self { return Empty() as! Response }
        do {
            return try APIJSON.makeDecoder().decode(Response.self, from: data)
        } catch {
            throw APIError.server(
                status: status, code: "bad_response", message: "The server's answer could not be read.")
        }
    }

    private func sendAuthorized(
        _ method: HTTPMethod, _ path: String, payload: Data?, auth: Auth, reauthToken: String?
    ) async throws -> (Int, Data) {
        let accessToken = auth == .session ? await keeper.current?.accessToken : nil
        if auth == .session, accessToken == nil { throw APIError.signedOut }
        do {
            return try await sendWithRetries(
                method, path, payload: payload, bearer: accessToken, reauthToken: reauthToken)
        } catch APIError.unauthorized(let message) where auth == .session {
            guard let accessToken else { throw APIError.unauthorized(message: message) }
            let fresh = try await keeper.refreshed(after: accessToken) { [self] refreshToken in
                try await send(.POST, "/auth/refresh", body: RefreshBody(refreshToken: refreshToken), auth: .none)
            }
            return try await sendWithRetries(
                method, path, payload: payload, bearer: fresh.accessToken, reauthToken: reauthToken)
        }
    }

    private func sendWithRetries(
        _ method: HTTPMethod, _ path: String, payload: Data?, bearer: String?, reauthToken: String?
    ) async throws -> (Int, Data) {
        let delays = method == .GET ? configuration.getRetryDelays : []
        var attempt = 0
        while true {
            do {
                return try await sendOnce(method, path, payload: payload, bearer: bearer, reauthToken: reauthToken)
            } catch APIError.offline(let reason) where attempt < delays.count {
                logger.debug(
                    "retrying after no answer",
                    metadata: ["path": "\(RequestJournal.redactedPath(path))", "reason": "\(reason)"])
                try? await sleep(delays[attempt])
                attempt += 1
            }
        }
    }

    private func sendOnce(
        _ method: HTTPMethod, _ path: String, payload: Data?, bearer: String?, reauthToken: String?
    ) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: configuration.baseURL + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let reauthToken { request.headers.add(name: APIHeader.reauthToken, value: reauthToken) }
        if let payload {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: payload))
        }
        let started = ContinuousClock.now
        func record(_ status: Int?, _ errorCode: String?) {
            let milliseconds = (ContinuousClock.now - started).wholeMilliseconds
            let entry = RequestRecord(
                method: method.rawValue, path: RequestJournal.redactedPath(path), status: status,
                milliseconds: milliseconds, errorCode: errorCode)
            journal.append(entry)
            logger.debug(
                "\(entry.method) \(entry.path) → \(status.map(String.init) ?? "no answer") in \(milliseconds) ms")
        }
        let status: Int
        let data: Data
        do {
            let response = try await http.execute(request, timeout: TimeAmount(configuration.requestTimeout))
            let buffer = try await response.body.collect(upTo: 4 << 20)
            status = Int(response.status.code)
            data = Data(buffer.readableBytesView)
            if !(200..<300).contains(status) {
                let error = APIError.from(
                    status: status, body: data, retryAfterHeader: response.headers.first(name: APIHeader.retryAfter))
                record(status, error.code)
                throw error
            }
        } catch let error as APIError {
            throw error
        } catch is CancellationError {
            record(nil, "cancelled")
            throw CancellationError()
        } catch {
            record(nil, "offline")
            throw APIError.offline(reason: String(describing: type(of: error)))
        }
        record(status, nil)
        return (status, data)
    }
}

/// The body of a call that sends or expects none.
public struct Empty: Codable, Sendable, Equatable {
    public init() {}
}

extension APIError {
    /// A short, stable name for the journal.
    var code: String {
        switch self {
        case .offline: return "offline"
        case .rateLimited: return "rate_limited"
        case .codeIncorrect: return "code_incorrect"
        case .codeExpired: return "code_expired"
        case .taken: return "taken"
        case .invalid: return "invalid"
        case .reauthRequired: return "reauth_required"
        case .unauthorized: return "unauthorized"
        case .signedOut: return "signed_out"
        case .server(_, let code, _): return code.isEmpty ? "server" : code
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

extension Duration {
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
