import AccessAPI
import AccessBackend
import AccessBackendTesting
import AccessCore
import Foundation
import Logging
import Testing

@testable import AccessApp

/// Issue 51 item 5: one file per bug, gathered over real HTTP from a reference backend on 127.0.0.1 with its
/// SQLite file. A session that typed a password and a code, and was given tokens, leaves none of them as text in
/// any file of its report.
@Suite struct BugReportTests {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    static let newPhone = "+995511999999"
    static let password = "correct-horse-42"

    @Test func aReportHoldsEveryPartAndNoSecretOfTheSession() async throws {
        try await TestBackend.with { backend in
            var configuration = AccountClient.Configuration(baseURL: backend.running.baseURL)
            configuration.requestTimeout = .seconds(30)
            configuration.connectTimeout = .seconds(30)
            let client = AccountClient(configuration: configuration, sessionStore: nil, logger: Self.quiet)
            do {
                let startedAt = try await client.adminClock().now
                let startWorld = try await client.adminWorldFile(WorldNames.defaultWorld)
                // The session: signed in, re-authenticated with the password, a phone change by a texted code.
                let tokens = try await client.adminSignIn()
                let grant = try await backend.passwordGrant(token: tokens.accessToken, password: Self.password)
                let accepted: OTPRequestAccepted = try await backend.requestOTP(
                    Self.newPhone, .changePhone, token: tokens.accessToken, reauth: grant.reauthToken
                ).decode()
                let code = try await backend.lastCode(to: Self.newPhone)
                let verified = try await backend.verify(
                    accepted.requestId, code, token: tokens.accessToken, reauth: grant.reauthToken)
                #expect(verified.status == 200)
                let tape = "size 80x24\nscenario default\nkey Enter\nsecret scenario\nkey Enter\ncode\n"
                let session = BugReport.Session(
                    tape: tape, cast: "{\"version\": 2}\n", screen: "Phone updated\n", startWorld: startWorld,
                    startedAt: startedAt, scenario: "default", world: WorldNames.defaultWorld, backend: "a test backend"
                )
                let entries = try ZipArchive.read(try await BugReport.archive(of: session, from: client))

                #expect(
                    Set(entries.map(\.name)) == [
                        "README.md", "report.json", "session.tape", "session.cast", "screen.txt",
                        "world-at-start.sqlite", "world-now.sqlite", "journal.json", "timeline.json",
                    ])
                let manifest = try BugReport.manifest(in: entries)
                #expect(manifest.userId == "usr_athlete")
                #expect(manifest.startedAt == startedAt)
                #expect(manifest.appVersion == AppVersion.current)
                func text(_ name: String) -> String {
                    String(decoding: entries.first { $0.name == name }?.data ?? Data(), as: UTF8.self)
                }
                // The requests that carried the secrets are in the journal, so their absence below means something.
                #expect(text("journal.json").contains("/auth/phone/verify-otp"))
                #expect(text("journal.json").contains("/auth/reauth/password"))
                #expect(text("timeline.json").contains("usr_athlete"))
                #expect(entries.first { $0.name == "world-at-start.sqlite" }?.data == startWorld)
                #expect(
                    entries.first { $0.name == "world-now.sqlite" }?.data.starts(with: Data("SQLite format 3".utf8))
                        == true)

                let secrets = [
                    ("the code", code), ("the access token", tokens.accessToken),
                    ("the refresh token", tokens.refreshToken), ("the re-auth token", grant.reauthToken),
                    ("the password", Self.password),
                ]
                for entry in entries {
                    for (what, secret) in secrets {
                        #expect(entry.data.range(of: Data(secret.utf8)) == nil, "\(what) is in \(entry.name)")
                    }
                }
            } catch {
                await client.shutdown()
                throw error
            }
            await client.shutdown()
        }
    }

    @Test func aZipThatIsNoReportIsRefusedWithWhatIsMissing() throws {
        let other = [ZipArchive.Entry(name: "notes.txt", data: Data("hi".utf8))]
        #expect(throws: ZipArchive.Problem("no report.json: not an AccessDeck bug report")) {
            try BugReport.manifest(in: other)
        }
        let manifest = BugReport.Manifest(
            appVersion: "0.1.0", backend: "x", scenario: "default", world: "default",
            startedAt: Date(timeIntervalSince1970: 0),
            madeAt: Date(timeIntervalSince1970: 0), userId: nil)
        var future = manifest
        future.format = 99
        let encoder = APIJSON.makeContractEncoder()
        #expect(throws: ZipArchive.Problem("report format 99; this accessdeck opens format 1")) {
            try BugReport.manifest(in: [ZipArchive.Entry(name: "report.json", data: try encoder.encode(future))])
        }
        #expect(throws: ZipArchive.Problem("no session.tape in the report")) {
            try BugReport.manifest(in: [ZipArchive.Entry(name: "report.json", data: try encoder.encode(manifest))])
        }
    }
}
