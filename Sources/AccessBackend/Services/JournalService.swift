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

    func recent(limit: Int) -> [JournalEntry] {
        entries.withLock { Array($0.suffix(limit)) }
    }
}
