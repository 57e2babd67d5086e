import AccessCore
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import OpenAPIRuntime

/// Innermost: sees every attempt on the wire. Journals it, types a non-2xx answer as an
/// `APIError` (so no generated call has to map statuses), and turns "no answer" into `.offline`.
struct OutcomeMiddleware: ClientMiddleware {
    /// No answer of the contract comes near this; an HTML error page larger than it is cut.
    static let errorBodyLimit = 1 << 20

    let journal: RequestJournal
    let logger: Logger
    let serverClock: ServerClock
    /// The client's time-out for a whole call, which a call that timed out names.
    let requestTimeout: Duration

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let started = ContinuousClock.now
        let path = RequestJournal.redactedPath(request.path ?? "/")
        var request = request
        let requestID = journal.nextRequestID()
        request.headerFields[Self.requestIDField] = requestID
        // Request bodies of the contract are small; read once here, they are sent from memory.
        var sentBody: Data?
        if let body { sentBody = try await Data(collecting: body, upTo: 1 << 20) }
        let body = sentBody.map { HTTPBody($0) }
        var entry = RequestRecord(
            requestID: requestID, method: request.method.rawValue, path: path,
            query: RequestJournal.redactedQuery(request.path ?? ""),
            requestHeaders: request.headerFields.map {
                RequestRecord.Header(
                    name: $0.name.canonicalName,
                    value: Redaction.headerValue(name: $0.name.canonicalName, value: $0.value))
            },
            requestBody: sentBody.flatMap(RequestJournal.redactedBody), status: nil, milliseconds: 0, errorCode: nil)
        // The GET retry middleware asks again within one chain: each attempt names the one it repeats, and that
        // one the attempt that repeated it (issue 48 item 19: a 503 asked again never showed).
        if let chain = RetryChain.current {
            entry.retryOf = chain.lastRequestID
            if let previous = chain.lastRequestID { journal.markRetried(previous, by: requestID) }
            chain.lastRequestID = requestID
        }
        let kept = !RequestJournal.polledOperations.contains(operationID)
        func record(_ status: Int?, _ errorCode: String?, responseBody: Data? = nil) {
            entry.milliseconds = (ContinuousClock.now - started).wholeMilliseconds
            entry.status = status
            entry.errorCode = errorCode
            entry.responseBody = responseBody.flatMap(RequestJournal.redactedBody)
            if kept { journal.append(entry) }
            logger.debug(
                "\(entry.method) \(entry.path) → \(status.map(String.init) ?? "no answer") in \(entry.milliseconds) ms")
        }
        let response: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (response, responseBody) = try await next(request, body, baseURL)
        } catch {
            if Task.isCancelled || Self.isCancellation(error) {
                record(nil, "cancelled")
                throw CancellationError()
            }
            let underlying = (error as? ClientError)?.underlyingError ?? error
            let reason = NoAnswer.reason(for: underlying)
            let failure =
                reason == NoAnswer.timedOut
                ? APIError.timedOut(after: requestTimeout) : APIError.offline(reason: reason)
            record(nil, failure.code)
            throw failure
        }
        let status = response.status.code
        // Behind `accessdeck proxy`: the proxy's number for this exchange, which its findings cite.
        entry.proxyExchange = response.headerFields[Self.proxyExchangeField].flatMap { Int($0) }
        LastStatus.current?.set(status)
        serverClock.observe(dateHeader: response.headerFields[values: .date].first)
        guard (200..<300).contains(status) else {
            var data = Data()
            if let responseBody {
                // A body that will not arrive in full still leaves the status to go by.
                data = (try? await Data(collecting: responseBody, upTo: Self.errorBodyLimit)) ?? Data()
            }
            let error =
                ContractStatuses.allows(status, for: operationID)
                ? APIError.from(status: status, body: data, retryAfterHeader: response.headerFields[.retryAfter])
                : APIError.invalidResponse(status: status)
            record(status, error.code, responseBody: data)
            throw error
        }
        // Read whole so the journal can keep it; the contract's answers are small.
        var data = Data()
        if let responseBody {
            do {
                data = try await Data(collecting: responseBody, upTo: Self.errorBodyLimit)
            } catch {
                // The connection went before the body was whole (issue 51: a reset mid-answer): no answer came,
                // as when it goes before the head; not an answer the contract does not allow.
                let reason = NoAnswer.reason(for: (error as? ClientError)?.underlyingError ?? error)
                guard NoAnswer.all.contains(reason) else { throw error }
                let failure =
                    reason == NoAnswer.timedOut
                    ? APIError.timedOut(after: requestTimeout) : APIError.offline(reason: reason)
                record(status, failure.code)
                throw failure
            }
        }
        record(status, nil, responseBody: data)
        return (response, responseBody == nil ? nil : HTTPBody(data))
    }

    static let requestIDField = HTTPField.Name("X-Request-ID")!
    static let proxyExchangeField = HTTPField.Name(ProxyFindingsDigest.exchangeHeader)!

    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? ClientError { return error.underlyingError is CancellationError }
        return false
    }
}

extension ContractStatuses {
    /// Whether an error status is one the call may answer: one the contract lists for it, or one any
    /// server or proxy on the way may send whatever the call (401 a refused session, 408, 413, 429, every
    /// 5xx). An operation the table does not know (a contract newer than this build) is not judged.
    static func allows(_ status: Int, for operationID: String) -> Bool {
        if anyCall.contains(status) || status >= 500 { return true }
        guard let listed = listed[operationID] else { return true }
        return listed.contains(status)
    }

    static let anyCall: Set<Int> = [401, 408, 413, 429]
}

/// Why a call got no answer, as the retry rule and the journal need it.
enum NoAnswer {
    /// Nobody listens there (the backend was stopped, a wrong port): known in a millisecond.
    static let refused = "connection refused"
    /// The connection did not open within the connect time-out: no connection, as good as refused.
    static let notConnected = "connect timed out"
    /// The connection was open but the answer did not come within the request time-out: `APIError.timedOut`.
    static let timedOut = "no answer in time"
    /// The connection closed before the answer was whole: the next try may well get one.
    static let lost = "connection lost"

    static func reason(for error: any Error) -> String {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .tlsHandshakeTimeout: return notConnected
            case .deadlineExceeded, .readTimeout, .writeTimeout: return timedOut
            case .remoteConnectionClosed, .cancelled: return lost
            default: return String(describing: error)
            }
        case let error as NIOConnectionError:
            // Every address tried; a connect time-out among them: nothing answered in time, no connection.
            return error.connectionErrors.contains { isConnectTimeout($0.error) } ? notConnected : refused
        case let error as ChannelError:
            return isConnectTimeout(error) ? notConnected : lost
        case let error as IOError:
            return error.errnoCode == ECONNREFUSED ? refused : lost
        case let error as HTTPParserError where error == .invalidEOFState:
            // The connection closed inside the body, before all the bytes its head promised.
            return lost
        default:
            return String(describing: type(of: error))
        }
    }

    private static func isConnectTimeout(_ error: any Error) -> Bool {
        guard case .connectTimeout? = error as? ChannelError else { return false }
        return true
    }

    /// The reasons that mean no answer came (any other error is the answer's own).
    static let all: Set<String> = [refused, notConnected, timedOut, lost]

    /// Only a lost answer is worth asking again (a gateway's 502/503/504 too: `APIError.isGatewayError`).
    static func isWorthRetrying(_ reason: String) -> Bool { reason == lost }
}

/// Retries a GET whose answer was lost (or a 502/503/504): reading twice is harmless, while a POST
/// that may have arrived must not be sent again. A refused connection or a time-out is not retried:
/// the backend is not there, and the person would only wait longer to be told so.
struct GetRetryMiddleware: ClientMiddleware {
    let delays: [Duration]
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get else { return try await next(request, body, baseURL) }
        var attempt = 0
        let chain = RetryChain()
        while true {
            do {
                return try await RetryChain.$current.withValue(chain) { try await next(request, body, baseURL) }
            } catch {
                let failure = APIError.unwrapping(error)
                let reason: String
                switch failure {
                case .offline(let lost)? where NoAnswer.isWorthRetrying(lost): reason = lost
                case .server(let status, _, _)? where failure?.isGatewayError == true: reason = "HTTP \(status)"
                default: throw error
                }
                guard attempt < delays.count else { throw error }
                logger.debug(
                    "retrying after no answer",
                    metadata: ["path": "\(RequestJournal.redactedPath(request.path ?? ""))", "reason": "\(reason)"])
                try? await sleep(delays[attempt])
                attempt += 1
            }
        }
    }
}

/// The attempts of one GET as the retry middleware makes them: the journal records of a call asked again name
/// each other (`RequestRecord.retryOf`, `retriedBy`).
final class RetryChain: @unchecked Sendable {
    @TaskLocal static var current: RetryChain?
    private let lock = NSLock()
    private var last: String?

    /// The request id of the attempt made last.
    var lastRequestID: String? {
        get { lock.withLock { last } }
        set { lock.withLock { last = newValue } }
    }
}

/// Outermost, on the signed-in operations only: adds the bearer token, and on a 401 that refuses
/// the session itself refreshes once (shared by concurrent calls, see `SessionKeeper`) and sends
/// the call again with the new token.
struct SessionMiddleware: ClientMiddleware {
    let keeper: SessionKeeper
    let refresh: @Sendable (String) async throws -> SessionTokens

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let accessToken = await keeper.current?.accessToken else { throw APIError.signedOut }
        // The body may have to go twice; request bodies of the contract are small.
        var payload: Data?
        if let body { payload = try await Data(collecting: body, upTo: 1 << 20) }
        func send(_ token: String) async throws -> (HTTPResponse, HTTPBody?) {
            var authorized = request
            authorized.headerFields[.authorization] = "Bearer \(token)"
            return try await next(authorized, payload.map { HTTPBody($0) }, baseURL)
        }
        do {
            return try await send(accessToken)
        } catch {
            if case .signedOutElsewhere(let message)? = APIError.unwrapping(error) {
                await keeper.clear()
                throw APIError.signedOutElsewhere(message: message)
            }
            guard case .unauthorized? = APIError.unwrapping(error) else { throw error }
            let fresh = try await keeper.refreshed(after: accessToken, using: refresh)
            return try await send(fresh.accessToken)
        }
    }
}
