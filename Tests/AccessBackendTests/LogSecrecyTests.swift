import AccessAPI
import AccessBackendTesting
import Foundation
import GRDB
import Logging
import Synchronization
import Testing

@testable import AccessBackend

/// A token, password or code never appears in a log line, even at trace level, nor in the event log (issue 49).
@Suite struct LogSecrecyTests {
    final class Capture: Sendable {
        let lines = Mutex<[String]>([])
    }

    struct CapturingHandler: LogHandler {
        let capture: Capture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.lines.withLock { $0.append("\(event.message) \(all)") }
        }
    }

    @Test func aFullFlowLogsNoSecret() async throws {
        let capture = Capture()
        var logger = Logger(label: "test") { _ in CapturingHandler(capture: capture) }
        logger.logLevel = .trace
        var secrets: [String] = ["correct-horse-42"]
        var events: [String] = []
        try await TestBackend.with(logger: logger) { backend in
            let tokens = try await backend.signIn()
            secrets += [tokens.accessToken, tokens.refreshToken]
            let grant = try await backend.passwordGrant(token: tokens.accessToken)
            secrets.append(grant.reauthToken)
            let accepted: OTPRequestAccepted = try await backend.requestOTP(
                "+995511200300", .changePhone, token: tokens.accessToken, reauth: grant.reauthToken
            ).decode()
            let code = try await backend.lastCode(to: "+995511200300")
            secrets.append(code)
            _ = try await backend.verify(accepted.requestId, code, token: tokens.accessToken, reauth: grant.reauthToken)
            _ = try await backend.send(.GET, "/nowhere", token: tokens.accessToken)
            let wrong = code == "000000" ? "111111" : "000000"
            let again: OTPRequestAccepted = try await backend.requestOTP(
                "+995511200301", .addPhone, token: tokens.accessToken
            ).decode()
            secrets.append(try await backend.lastCode(to: "+995511200301"))
            _ = try await backend.verify(again.requestId, wrong, token: tokens.accessToken)
            _ = try await backend.send(.POST, "/auth/logout", token: tokens.accessToken)
            events = try await backend.running.store.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM events").map { "\($0)" }
            }
        }
        let lines = capture.lines.withLock { $0 }
        #expect(events.count >= 6, "the flow wrote its events")
        for secret in secrets {
            #expect(!lines.contains { $0.contains(secret) }, "a log line holds a secret")
            #expect(!events.contains { $0.contains(secret) }, "an event holds a secret")
        }
    }
}
