import AccessAPI
import Foundation
import Testing

@testable import AccessBackend

/// The journal keeps the newest 500 requests, oldest first, however many came before.
@Suite struct JournalTests {
    private func entry(_ index: Int) -> JournalEntry {
        JournalEntry(
            id: 0, at: Date(timeIntervalSince1970: 0), method: "GET", path: "/\(index)", status: 200, ms: 0, rule: "ok")
    }

    @Test func keepsTheNewestInOrderPastItsCapacity() {
        let journal = JournalService()
        for index in 0..<1_234 { journal.record(entry(index)) }
        let all = journal.recent(limit: 500)
        #expect(all.count == 500)
        #expect(all.first?.path == "/734")
        #expect(all.last?.path == "/1233")
        #expect(journal.recent(limit: 2).map(\.path) == ["/1232", "/1233"])
    }

    @Test func beforeItIsFullItHoldsEverything() {
        let journal = JournalService()
        for index in 0..<3 { journal.record(entry(index)) }
        #expect(journal.recent(limit: 100).map(\.path) == ["/0", "/1", "/2"])
        #expect(journal.recent(limit: 0).isEmpty)
    }

    @Test func restoredEntriesKeepTheirNumbersAndNewOnesFollow() {
        let journal = JournalService()
        journal.restore(
            (1...3).map { index in
                var saved = entry(index)
                saved.id = 10 + index
                return saved
            })
        journal.record(entry(4))
        #expect(journal.recent(limit: 10).map(\.id) == [11, 12, 13, 14])
        #expect(journal.entries(after: 12).map(\.id) == [13, 14])
    }
}
