import AccessAPI
import AccessBackendTesting
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Old `--db` files and world files keep working (issue 46 item 1): a database file and a world file made by the
/// accessdeck of before every code had one record (Fixtures/, made by Fixtures/make-main-fixtures.sh with main at
/// eef222d) migrate to `code_challenges`, and the live codes of both old tables and the live link of every kind
/// they hold still work, each as its rules say.
@Suite struct MainFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// What the fixture holds as the old accessdeck wrote it: its last migration and its codes' request ids.
    struct Before {
        var lastMigration: String
        var phoneCode: String
        var signInCodes: [String: String]

        init(_ path: String) throws {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            (lastMigration, phoneCode, signInCodes) = try queue.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC") ?? "",
                    try String.fetchOne(db, sql: "SELECT id FROM otp_requests WHERE state = 'open'") ?? "",
                    Dictionary(
                        uniqueKeysWithValues: try Row.fetchAll(
                            db, sql: "SELECT channel, id FROM sign_in_challenges WHERE state = 'open'"
                        ).map { ($0["channel"] as String, $0["id"] as String) })
                )
            }
        }
    }

    private static func copy(_ names: [String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        return directory
    }

    @Test func aDatabaseFileOfBeforeMigratesAndItsCodesAndLinksWork() async throws {
        let directory = try Self.copy(["MainDatabase.sqlite", "MainDatabase.sqlite.key"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("MainDatabase.sqlite").path
        let before = try Before(path)
        #expect(before.lastMigration == "v21-reauth-sign-ins")
        try await TestBackend.with(databasePath: path) { backend in
            let tables = try await backend.running.store.pool.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            #expect(tables.contains("code_challenges"))
            #expect(!tables.contains("otp_requests") && !tables.contains("sign_in_challenges"))
            try await Self.everyCodeAndLinkWorks(Road(backend: backend, prefix: ""), before: before)
        }
    }

    /// `WorldFile.check` compares the file's schema with what its own migrations make, then opening it runs the
    /// ones after.
    @Test func aWorldFileOfBeforeUploadsMigratesAndItsCodesAndLinksWork() async throws {
        let file = Self.fixtures.appendingPathComponent("MainWorld.sqlite")
        let before = try Before(file.path)
        #expect(before.lastMigration == "v21-reauth-sign-ins")
        try await TestBackend.with { backend in
            let uploaded = try await backend.send(
                .POST, "/_admin/worlds?name=old", raw: try Data(contentsOf: file),
                contentType: "application/vnd.sqlite3")
            #expect(uploaded.status == 201, "\(String(decoding: uploaded.data, as: UTF8.self))")
            try await Self.everyCodeAndLinkWorks(Road(backend: backend, prefix: "/w/old"), before: before)
        }
    }

    /// The default world or a named one.
    struct Road {
        let backend: TestBackend
        let prefix: String

        func post(
            _ path: String, _ body: [String: Any], token: String? = nil, reauth: String? = nil
        )
            async throws -> Reply
        {
            try await backend.send(
                .POST, prefix + path, raw: try JSONSerialization.data(withJSONObject: body), token: token,
                reauth: reauth)
        }

        func outbox() async throws -> [OutboxMessage] {
            try await backend.get(prefix + "/_admin/outbox").decode([Components.Schemas.OutboxMessage].self)
                .map(OutboxMessage.init)
        }

        /// The newest link of each kind in the outbox, by the outbox's purpose.
        func links() async throws -> [String: String] {
            try await outbox().reduce(into: [:]) { links, message in
                if let token = message.token { links[message.purpose] = token }
            }
        }
    }

    static var device: [String: Any] {
        [
            "device_name": "fixture", "system_name": "Linux", "system_version": "1", "identifier": "fixture-2",
            "public_key": Data(repeating: 7, count: 32).base64EncodedString(),
        ]
    }

    static func everyCodeAndLinkWorks(_ road: Road, before: Before) async throws {
        // The outbox reads each message's code or link where it now stands: all live but the opened change link.
        let listed = try await road.outbox().filter { $0.kind != "recovery_started_notice" }
        #expect(
            listed.map { "\($0.purpose) \($0.status.rawValue)" } == [
                "change_phone live", "sign_in live", "sign_in live", "reauth live", "email_change used",
                "email_revert live", "email_change live", "password_reset live", "recovery live", "register live",
            ])
        let links = try await road.links()
        #expect(
            links.keys.sorted() == ["email_change", "email_revert", "password_reset", "reauth", "recovery", "register"])
        for (purpose, token) in links {
            let info: LinkInfo = try await road.post("/auth/links/inspect", ["token": token]).decode()
            #expect(info.state.known == .live, "\(purpose)")
        }
        let tokens: SessionTokens = try await road.backend.send(.POST, road.prefix + "/_admin/session").decode()
        let session = tokens.accessToken

        // The change-phone code of otp_requests: a wrong try counts, the right code changes the number.
        let grant: ReauthGrant = try await road.post(
            "/auth/reauth/password", ["password": "correct-horse-42"], token: session
        ).decode()
        let phoneCode = try #require(try await road.outbox().last { $0.purpose == "change_phone" }?.code)
        let wrong = try await road.post(
            "/auth/phone/verify-otp",
            ["request_id": before.phoneCode, "code": phoneCode == "000000" ? "111111" : "000000"],
            token: session, reauth: grant.reauthToken)
        #expect(wrong.status == 401 && wrong.error?.attemptsRemaining == 4)
        let changed = try await road.post(
            "/auth/phone/verify-otp", ["request_id": before.phoneCode, "code": phoneCode], token: session,
            reauth: grant.reauthToken)
        #expect(changed.status == 200)
        let methods: AuthMethods = try await road.backend.get(road.prefix + "/me/auth-methods", token: session)
            .decode()
        #expect(methods.phone == "+995511777001")

        // The sign-in codes of sign_in_challenges: the phone one signs up, the email one is resent, then signs up.
        let phoneChallenge = try #require(before.signInCodes["phone"])
        let signInCode = try #require(try await road.outbox().last { $0.to == "+995511777002" }?.code)
        let signedUp = try await road.post(
            "/auth/sign-in/code/verify", ["challenge_id": phoneChallenge, "code": signInCode, "device": device])
        #expect(signedUp.status == 200, "\(String(decoding: signedUp.data, as: UTF8.self))")
        let emailChallenge = try #require(before.signInCodes["email"])
        let resent = try await road.post("/auth/sign-in/code/resend", ["challenge_id": emailChallenge])
        #expect(resent.status == 202, "\(String(decoding: resent.data, as: UTF8.self))")
        let emailCode = try #require(try await road.outbox().last { $0.to == "fixture-signin@mail.com" }?.code)
        #expect(
            try await road.post(
                "/auth/sign-in/code/verify", ["challenge_id": emailChallenge, "code": emailCode, "device": device]
            ).status == 200)

        // Every kind of link, each opened as its flow opens it.
        let reauth = try await road.post(
            "/auth/reauth/email/confirm", ["token": links["reauth", default: ""]], token: session)
        #expect(reauth.status == 200)
        #expect(try await road.post("/auth/recovery/check", ["token": links["recovery", default: ""]]).status == 200)
        #expect(try await road.post("/auth/register/confirm", ["token": links["register", default: ""]]).status == 200)
        #expect(try await road.post("/auth/email/verify", ["token": links["email_change", default: ""]]).status == 200)
        // A reset refuses the current password (issue 46: one judge of every new password), then takes a new one.
        let reset = links["password_reset", default: ""]
        let same = try await road.post(
            "/auth/password/reset/complete", ["token": reset, "new_password": "correct-horse-42"])
        #expect(same.status == 422 && same.error?.errors == [PasswordService.unchanged])
        #expect(
            try await road.post(
                "/auth/password/reset/complete", ["token": reset, "new_password": "Lantern-Orchard-73"]
            ).status == 200)
        let reverted = try await road.post("/auth/email/revert", ["token": links["email_revert", default: ""]])
        #expect(reverted.status == 200, "\(String(decoding: reverted.data, as: UTF8.self))")

        // Issue 49: the migrated file has an event log, written by the same roads: the phone change's wrong and
        // right codes and the new number are on its owner's timeline, then the email's change and revert.
        let timeline: Timeline = try await road.backend.get(
            road.prefix + "/_admin/timeline?user=%2B995511777001&kinds=code_wrong,code_accepted,method_changed"
        ).decode()
        #expect(
            timeline.events.map(\.kind) == [
                "code_wrong", "code_accepted", "method_changed", "method_changed", "method_changed",
            ])
        #expect(timeline.events[2].detail.additionalProperties["method"] == "phone")
        #expect(timeline.events[4].detail.additionalProperties["reverted"] == "yes")
    }
}
