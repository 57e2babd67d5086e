import AccessAPI
import Foundation
import Synchronization

/// Recent requests for QA: method, path, status, time taken and the deciding rule. Never bodies,
/// never query strings (an email can sit in one), never headers (tokens do).
final class JournalService: Sendable {
    private let capacity = 500
    private let entries = Mutex<[JournalEntry]>([])

    func record(_ entry: JournalEntry) {
        entries.withLock { list in
            list.append(entry)
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
    }

    static let defaultLimit = 100

    /// `?limit=` as the contract declares it (an integer, 0...capacity); anything else is a 422 rather
    /// than a silent default, so a typo in a QA script shows.
    func limit(from query: String?) throws -> Int {
        guard let query else { return Self.defaultLimit }
        guard let value = Int(query), (0...capacity).contains(value) else {
            throw BackendError(
                .unprocessableContent, "invalid_parameter", "limit: expected an integer from 0 to \(capacity).",
                rule: "admin.invalid_parameter")
        }
        return value
    }

    func recent(limit: Int) -> [JournalEntry] {
        entries.withLock { Array($0.suffix(limit)) }
    }
}
