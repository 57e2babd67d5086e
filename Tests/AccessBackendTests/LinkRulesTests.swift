import AccessCore
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Every kind of emailed link is issued and spent by `LinkService` from AccessCore's one table (issue 46 item 1,
/// `EmailLink.rules`): a new link lives its kind's lifetime, ends exactly the account's live links of the kinds
/// its row supersedes, and opening it spends it when its row says one-shot. A flow that kept a number or a
/// superseding rule of its own would disagree with the table here.
@Suite struct LinkRulesTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    private static func withStore(_ body: (Store) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store.open(path: directory.appendingPathComponent("state.sqlite").path)
        defer { try? store.pool.close() }
        try body(store)
    }

    @Test(arguments: EmailLink.allCases)
    func aNewLinkLivesItsLifetimeAndEndsWhatItsRowSupersedes(_ kind: EmailLink) throws {
        try Self.withStore { store in
            let links = LinkService(
                store: store, clock: BackendClock(start: Self.now, frozen: true), linkBase: "https://example.test")
            try store.pool.write { db in
                try db.execute(
                    sql: "INSERT INTO users (id, role, is_primary, email) VALUES ('usr_1', 'coach', 1, 'a@mail.com')")
                // One live link of every kind, already there.
                for earlier in EmailLink.allCases {
                    try LinkRecord(
                        tokenHash: "earlier-\(earlier.rawValue)", userId: "usr_1", purpose: earlier,
                        expiresAt: Self.now.unix + 60, email: "a@mail.com"
                    ).insert(db)
                }
                let expires = try links.issue(db, kind, userId: "usr_1", to: "a@mail.com", now: Self.now)
                #expect(expires == Self.now.addingTimeInterval(kind.rules.lifetime))

                let ended = try LinkRecord.fetchAll(db).filter {
                    $0.tokenHash.hasPrefix("earlier-") && !$0.isLive(at: Self.now.unix)
                }
                #expect(Set(ended.map(\.purpose)) == kind.rules.supersedes)
                #expect(ended.allSatisfy { $0.ended == .superseded })

                let issued = try #require(
                    try LinkRecord.fetchAll(db).first { !$0.tokenHash.hasPrefix("earlier-") })
                #expect(issued.purpose == kind && issued.expiresAt == Self.now.unix + kind.rules.lifetime)
                try LinkService.spend(db, issued, now: Self.now)
                let spent = try #require(try LinkRecord.find(db, tokenHash: issued.tokenHash))
                #expect(spent.isLive(at: Self.now.unix) == !kind.rules.oneShot)
            }
        }
    }
}
