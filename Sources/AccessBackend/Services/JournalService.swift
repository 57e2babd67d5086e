import AccessAPI
import AccessCore
import Foundation
import OpenAPIRuntime
import Synchronization

/// Recent requests for QA: method, path, status, time taken, the deciding rule, the injected fault, and the
/// request's headers, query and JSON bodies with every secret redacted (`JournalCapture` does that before an
/// entry gets here: nothing unredacted is ever kept).
final class JournalService: Sendable {
    static let capacity = RequestBounds.journalCapacity

    /// A body as redacted (`Redaction`), still text: it becomes the entry's JSON value only when the entry
    /// is read, so a request pays for the redacting scan and not for building a value nobody may ask for.
    struct RedactedBody: Sendable, Equatable {
        var text: String
        /// false: not JSON (`Redaction.notJSON`), or cut at `JournalCapture.maxBodyBytes`.
        var isWhole: Bool
    }

    /// An entry as recorded: its bodies and its request's headers not yet in it.
    struct Pending: Sendable {
        var entry: JournalEntry
        /// The request's headers, redacted, in their order; they become the entry's map (a repeated name's values
        /// joined) only when it is read: a map built for every request cost it some 3 K instructions.
        var requestHeaders: [(name: String, value: String)]
        var requestBody: RedactedBody?
        var responseBody: RedactedBody?

        init(
            entry: JournalEntry, requestHeaders: [(name: String, value: String)] = [], requestBody: RedactedBody? = nil,
            responseBody: RedactedBody? = nil
        ) {
            self.entry = entry
            self.requestHeaders = requestHeaders
            self.requestBody = requestBody
            self.responseBody = responseBody
        }

        /// The entry as the contract shows it: each body a JSON value when it is whole JSON, otherwise its
        /// text under the `_text` member, never both.
        var complete: JournalEntry {
            var entry = entry
            if !requestHeaders.isEmpty {
                var headers: [String: String] = [:]
                for (name, value) in requestHeaders {
                    headers[name] = headers[name].map { $0 + ", " + value } ?? value
                }
                entry.requestHeaders = .init(additionalProperties: headers)
            }
            if let requestBody {
                (entry.requestBody, entry.requestBodyText) = Self.shown(requestBody)
            }
            if let responseBody {
                (entry.responseBody, entry.responseBodyText) = Self.shown(responseBody)
            }
            return entry
        }

        private static func shown(_ body: RedactedBody) -> (OpenAPIValueContainer?, String?) {
            // The redactor's check of numbers is looser than a decoder's (`01`): what does not decode stays text.
            guard body.isWhole,
                let value = try? JSONDecoder().decode(OpenAPIValueContainer.self, from: Data(body.text.utf8))
            else { return (nil, body.text) }
            return (value, nil)
        }
    }

    /// A ring: every request records an entry, and shifting 500 entries down on each one cost more than
    /// a whole /health answer.
    private struct Ring {
        var slots: [Pending] = []
        var next = 0
        var lastID = 0
    }
    private let entries = Mutex(Ring())

    /// Numbers the entry (its `id` is ignored) and keeps it.
    func record(_ entry: JournalEntry) {
        record(Pending(entry: entry))
    }

    /// Moved into its slot, not copied: a copy of an entry is a retain of each of its strings, twice a request
    /// (issue 34 item 2). The entry it replaces comes back in `pending` and is freed after the lock is let go.
    func record(_ pending: consuming Pending) {
        entries.withLock { ring in
            ring.lastID += 1
            pending.entry.id = ring.lastID
            if ring.slots.count < Self.capacity {
                ring.slots.append(copy pending)
            } else {
                swap(&ring.slots[ring.next], &pending)
            }
            ring.next = (ring.next + 1) % Self.capacity
        }
    }

    /// Puts back entries saved by an earlier run (oldest first); ids go on from the newest.
    func restore(_ saved: [JournalEntry]) {
        entries.withLock { ring in
            ring = Ring()
            for entry in saved.suffix(Self.capacity) {
                ring.slots.append(Pending(entry: entry))
                ring.lastID = max(ring.lastID, entry.id)
            }
            ring.next = ring.slots.count % Self.capacity
        }
    }

    var lastID: Int { entries.withLock { $0.lastID } }

    static let defaultLimit = 100

    /// `?limit=` as the contract declares it (an integer, 0...capacity); anything else is a 422 rather
    /// than a silent default, so a typo in a QA script shows.
    func limit(from query: String?) throws -> Int {
        guard let query else { return Self.defaultLimit }
        guard let value = Int(query), (0...Self.capacity).contains(value) else {
            throw BackendError(
                .unprocessableContent, "invalid_parameter", "limit: expected an integer from 0 to \(Self.capacity).",
                rule: .adminInvalidParameter)
        }
        return value
    }

    /// Oldest first, like the list it replaced: the newest `limit` of those that pass `filter`.
    func recent(limit: Int, filter: JournalFilter = JournalFilter()) -> [JournalEntry] {
        entries.withLock { ring in Self.ordered(ring).filter { Self.passes($0.entry, filter) }.suffix(limit) }
            .map(\.complete)
    }

    /// How many kept entries pass `filter` (`GET /_admin/journal/count`).
    func count(_ filter: JournalFilter) -> Int {
        entries.withLock { ring in ring.slots.count { Self.passes($0.entry, filter) } }
    }

    private static func passes(_ entry: JournalEntry, _ filter: JournalFilter) -> Bool {
        filter.isEmpty
            || filter.matches(
                method: entry.method, path: entry.path, status: entry.status, rule: entry.rule, user: entry.user,
                at: entry.at)
    }

    /// The filters of `GET /_admin/journal` and `/count` as the contract hands them over; a value that does not
    /// read is a 400, so a typo in a QA script shows instead of matching nothing. A rule id of the right shape
    /// that names no rule is a 422: the document's patterns cannot list the catalogue, so such a request is
    /// well-formed and only names nothing.
    static func filter(
        path: String?, method: String?, status: String?, rule: String?, user: String?, since: Date?, until: Date?
    ) throws -> JournalFilter {
        var filter = JournalFilter(since: since, until: until)
        try Self.refuseLonger("path", path, than: 200)
        try Self.refuseLonger("method", method, than: 10)
        try Self.refuseLonger("rule", rule, than: 80)
        try Self.refuseLonger("user", user, than: 80)
        do {
            for (name, value) in zip(["path", "method", "status", "rule", "user"], [path, method, status, rule, user]) {
                if let value { try filter.set(name, to: value, rules: ruleIDs) }
            }
        } catch let invalid as JournalFilter.Invalid {
            let message = invalid.message
            var unknownRule = false
            if let rule, !ruleIDs.contains(rule), message.hasPrefix("rule:") { unknownRule = true }
            throw BackendError(
                unknownRule ? .unprocessableContent : .badRequest, "invalid_parameter", message,
                rule: .adminInvalidParameter)
        }
        return filter
    }

    private static let ruleIDs = Set(Rule.allCases.map(\.rawValue))
    /// A filter longer than the contract's maxLength for it (status is three characters by its pattern).
    private static func refuseLonger(_ name: String, _ value: String?, than most: Int) throws {
        guard let value, value.count > most else { return }
        throw BackendError(
            .badRequest, "invalid_parameter", "\(name): at most \(most) characters.", rule: .adminInvalidParameter)
    }

    /// Entries numbered after `id`, oldest first: what a save has not written yet.
    func entries(after id: Int) -> [JournalEntry] {
        entries.withLock { ring in Self.ordered(ring).filter { $0.entry.id > id } }.map(\.complete)
    }

    private static func ordered(_ ring: Ring) -> [Pending] {
        // Until the ring is full, `next` is its end and the slots are already in order.
        ring.slots.count < capacity ? ring.slots : Array(ring.slots[ring.next...]) + Array(ring.slots[..<ring.next])
    }
}
