import AccessAPI
import Foundation
import Logging
import Testing

/// Everything the client logs, kept so a test can search it.
final class LogSink: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

struct CapturingLogHandler: LogHandler {
    let sink: LogSink
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        sink.append("\(event.level) \(event.message) \(event.metadata ?? [:]) \(metadata)")
    }
}

@Suite struct ClientLoggingTests {
    @Test func noTokenPasswordOrCodeIsEverLogged() async throws {
        let sink = LogSink()
        let logger = Logger(label: "test.client") { _ in CapturingLogHandler(sink: sink) }
        var secrets: [String] = ["correct-horse-42"]
        try await withLiveBackend(scenario: "no-phone", logger: logger) { live in
            let first = try #require(
                try SessionStore(fileURL: live.folder.appendingPathComponent("session.json")).load())
            secrets += [first.accessToken, first.refreshToken]
            _ = try await live.client.adminAdvanceClock(seconds: 3601)
            _ = try await live.client.authMethods()  // refresh and retry
            let second = try #require(
                try SessionStore(fileURL: live.folder.appendingPathComponent("session.json")).load())
            secrets += [second.accessToken, second.refreshToken]
            let request = try await live.client.requestOtp(phone: "+995511222333", purpose: .addPhone)
            let code = try #require(try await live.client.adminOutbox().last?.code)
            secrets.append(code)
            _ = try await live.client.verifyOtp(requestId: request.requestId, code: code)
            let grant = try await live.client.reauthPassword(password: "correct-horse-42")
            secrets.append(grant.reauthToken)
            _ = await apiError { try await live.client.reauthPassword(password: "wrong-horse-42") }
        }
        let logged = sink.text
        #expect(logged.contains("/auth/refresh"), "the client logged nothing: the search below would prove nothing")
        for secret in secrets { #expect(!logged.contains(secret)) }
    }
}
