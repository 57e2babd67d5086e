import Foundation

/// One call as the app can show it later: no bodies, no headers, no query strings (which
/// may carry an email address), so nothing secret can end up here.
public struct RequestRecord: Equatable, Sendable {
    public var method: String
    public var path: String
    /// nil when no answer came (offline).
    public var status: Int?
    public var milliseconds: Int
    /// The error kind or server code, when the call failed.
    public var errorCode: String?
}

/// The client's recent calls, newest last, capped so a long session cannot grow it forever.
public final class RequestJournal: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [RequestRecord] = []
    public let capacity: Int

    public init(capacity: Int = 500) { self.capacity = capacity }

    public var records: [RequestRecord] { lock.withLock { entries } }

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
}
