import AccessCore
import Foundation

/// One call as the app can show it later (the QA console's journal panel): headers, query and JSON
/// bodies pass through `Redaction` before they are kept, so no token, password or code ends up here.
public struct RequestRecord: Equatable, Sendable {
    /// The `X-Request-ID` the call was sent with; the reference backend's journal names it too.
    public var requestID: String
    public var method: String
    public var path: String
    /// The query string, redacted; nil when there was none.
    public var query: String?
    /// Every request header as sent, credentials redacted.
    public var requestHeaders: [Header]
    /// JSON bodies, redacted and cut at `RequestJournal.bodyLimit` bytes; nil when there was none.
    public var requestBody: String?
    public var responseBody: String?
    /// nil when no answer came (offline).
    public var status: Int?
    public var milliseconds: Int
    /// The error kind or server code, when the call failed.
    public var errorCode: String?
    /// The request id of the attempt that asked this GET again (its answer was lost, or a 502/503/504): the
    /// person saw that one's answer, not this one's. nil when it was not asked again.
    public var retriedBy: String?
    /// The request id of the attempt this one asked again; nil for a first attempt.
    public var retryOf: String?
    /// Behind `accessdeck proxy`: the proxy's number for the exchange (its `X-Proxy-Exchange` header); nil from
    /// any other backend.
    public var proxyExchange: Int?

    public init(
        requestID: String = "", method: String, path: String, query: String? = nil, requestHeaders: [Header] = [],
        requestBody: String? = nil, responseBody: String? = nil, status: Int?, milliseconds: Int, errorCode: String?,
        retriedBy: String? = nil, retryOf: String? = nil, proxyExchange: Int? = nil
    ) {
        self.requestID = requestID
        self.method = method
        self.path = path
        self.query = query
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.responseBody = responseBody
        self.status = status
        self.milliseconds = milliseconds
        self.errorCode = errorCode
        self.retriedBy = retriedBy
        self.retryOf = retryOf
        self.proxyExchange = proxyExchange
    }

    public struct Header: Equatable, Sendable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}

/// The client's recent calls, newest last, capped so a long session cannot grow it forever.
public final class RequestJournal: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [RequestRecord] = []
    public let capacity: Int

    private var lastID = 0
    /// Tells this run's request ids from another's in a shared backend journal.
    private let runPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 16)

    public init(capacity: Int = 500) { self.capacity = capacity }

    /// A body kept in the journal is cut here: enough to read a reply, not a memory cost per entry.
    public static let bodyLimit = 4096

    /// The id the next request is sent with.
    func nextRequestID() -> String {
        lock.withLock {
            lastID += 1
            return "\(runPrefix)-\(lastID)"
        }
    }

    public var records: [RequestRecord] { lock.withLock { entries } }

    /// The app's own polls, by operation: its clock's resync over HTTP (about once a second while a countdown
    /// runs) and the console's look at the admin state (every 2 s). Not kept: they pushed the calls QA looks for
    /// out of the `capacity` kept (issue 48 item 8). The reference backend keeps neither in its journal either.
    public static let polledOperations: Set<String> = ["adminClock", "adminState"]

    /// Notes on the record of `requestID` that the client asked it again as `retry`.
    func markRetried(_ requestID: String, by retry: String) {
        lock.withLock {
            guard let index = entries.lastIndex(where: { $0.requestID == requestID }) else { return }
            entries[index].retriedBy = retry
        }
    }

    func append(_ record: RequestRecord) {
        lock.withLock {
            entries.append(record)
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    /// The path without its query string.
    static func redactedPath(_ path: String) -> String {
        String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The query string of `path`, redacted; nil without one.
    static func redactedQuery(_ path: String) -> String? {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? Redaction.query(String(parts[1])) : nil
    }

    /// A body as the journal keeps it: JSON redacted and cut, anything else only its size.
    static func redactedBody(_ data: Data) -> String? {
        guard !data.isEmpty else { return nil }
        return Redaction.json(data, maxBytes: bodyLimit) ?? "[\(data.count) bytes, not JSON]"
    }
}
