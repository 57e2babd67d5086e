import AccessAPI
import Foundation
import GRDB
import Synchronization
import Testing

@testable import AccessBackend

/// Issue 45 item 7: a password reset and a recovery start take as long for an address without an account as
/// for one with an account (7.8 against 5.9 ms and 6.2 against 4.8 ms before). A test cannot time them, so it
/// checks the cause: the database runs the same statements for both, and what an unknown address's are for is
/// rolled back, not kept. `scripts/bench-address-timing.sh` prints the times.
@Suite struct SameWorkTests {
    static let known = "jdoe@mail.com"
    static let unknown = "nobody@mail.com"
    static let device = DeviceInfo(
        deviceName: "Terminal", systemName: "Linux", systemVersion: "6.1", identifier: "id-terminal",
        publicKey: Data(repeating: 7, count: 32).base64EncodedString())

    enum Route: String, CaseIterable, CustomTestStringConvertible {
        case passwordReset, recoveryStart

        var testDescription: String { rawValue }

        func ask(_ email: String, store: Store, clock: BackendClock) async throws {
            switch self {
            case .passwordReset:
                _ = try await PasswordResetService(store: store, clock: clock, linkBase: "http://x").request(
                    email: email)
            case .recoveryStart:
                _ = try await RecoveryService(store: store, clock: clock, linkBase: "http://x").start(
                    RecoveryStartBody(email: email, device: SameWorkTests.device), ip: "127.0.0.1")
            }
        }
    }

    /// The statements the writer runs while `body` does, as written (values left out).
    static func statements(_ store: Store, _ body: () async throws -> Void) async throws -> [String] {
        let seen = Mutex<[String]>([])
        try await store.pool.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { seen.withLock { $0.append(statement.sql) } }
            }
        }
        try await body()
        try await store.pool.writeWithoutTransaction { db in db.trace(options: .statement, nil) }
        return seen.withLock { $0 }
    }

    @Test(arguments: Route.allCases)
    func aKnownAndAnUnknownAddressRunTheSameStatements(route: Route) async throws {
        let store = try Store.open(path: nil)
        defer { store.removeIfTemporary() }
        let clock = BackendClock(frozen: true)
        try await store.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, role, phone, email, password_hash)
                    VALUES ('usr_jdoe', 'athlete', '+995511100000', ?, 'hash')
                    """,
                arguments: [Self.known])
        }
        // The first write of a clock's moment also prunes (`RetentionService`): not part of either answer.
        try await route.ask("first@mail.com", store: store, clock: clock)
        let known = try await Self.statements(store) { try await route.ask(Self.known, store: store, clock: clock) }
        let unknown = try await Self.statements(store) {
            try await route.ask(Self.unknown, store: store, clock: clock)
        }
        // The unknown address's work is the known one's, then undone.
        let undo = "ROLLBACK TRANSACTION TO SAVEPOINT grdb"
        #expect(unknown.filter { $0 != undo } == known, "known: \(known)\nunknown: \(unknown)")
        #expect(unknown.filter { $0 == undo }.count == 1 && !known.contains(undo))
        #expect(known.contains { $0.hasPrefix("INSERT INTO \"outbox\"") })
        // And nothing of it is kept: the known address has its link, nobody else anything.
        let (links, messages) = try await store.pool.read { db in
            (
                try String.fetchAll(db, sql: "SELECT user_id FROM links"),
                try String.fetchAll(db, sql: "SELECT recipient FROM outbox")
            )
        }
        #expect(links == ["usr_jdoe"])
        #expect(messages == (route == .recoveryStart ? [Self.known, "+995511100000"] : [Self.known]))
    }
}
