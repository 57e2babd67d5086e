import AccessAPI
import AccessBackend
import Foundation
import Logging
import Testing

/// Issue 27: a backend that is not there is offline at once (refused: one attempt, no retries), a
/// backend that accepts and never answers is offline after the request time-out (one attempt, not
/// one time-out per retry), and a lost answer is still asked again. Over real sockets on 127.0.0.1.
@Suite struct NoAnswerTests {
    private static let quiet = Logger(label: "test.client") { _ in SwiftLogNoOpLogHandler() }

    /// A client whose GET retries are recorded instead of slept.
    private static func client(
        _ baseURL: String, requestTimeout: Duration? = nil, retries: RetryLog
    ) -> AccountClient {
        var configuration = AccountClient.Configuration(baseURL: baseURL)
        if let requestTimeout { configuration.requestTimeout = requestTimeout }
        let now = Date()
        return AccountClient(
            configuration: configuration, sessionStore: nil,
            initialSession: SessionTokens(
                userId: "usr_1", accessToken: "at_test", accessExpiresAt: now.addingTimeInterval(3600),
                refreshToken: "rt_test", refreshExpiresAt: now.addingTimeInterval(86_400)),
            logger: quiet, sleep: { retries.note($0) })
    }

    @Test func aRefusedConnectionIsOfflineAfterOneAttempt() async throws {
        let port = try closedPort()
        let retries = RetryLog()
        let client = Self.client("http://127.0.0.1:\(port)", retries: retries)
        let error = await apiError { try await client.me() }
        let attempts = client.journal.records.count
        await client.shutdown()
        #expect(error == .offline(reason: "connection refused"))
        #expect(attempts == 1)
        #expect(retries.waits.isEmpty)
    }

    @Test func theReferenceBackendsRefusedFaultIsOfflineAfterOneAttempt() async throws {
        try await withLiveBackend { live in
            try await live.client.adminSetFaults(FaultSettings(offline: "refused"))
            let before = live.client.journal.records.count
            let error = await apiError { try await live.client.authMethods() }
            #expect(error == .offline(reason: "connection refused"))
            #expect(live.client.journal.records.count - before == 1)
            await live.server.endRefusal()
        }
    }

    /// Issue 48 item 19: a backend that accepts and does not answer in time is there, only slow: the call timed
    /// out after the client's time-out (`--timeout`), which the person and the journal are told; not offline.
    @Test func aSilentBackendTimesOutAfterOneRequestTimeout() async throws {
        let listener = try SilentListener()
        defer { listener.stop() }
        let retries = RetryLog()
        let client = Self.client(listener.baseURL, requestTimeout: .milliseconds(300), retries: retries)
        let error = await apiError { try await client.me() }
        let records = client.journal.records
        await client.shutdown()
        #expect(error == .timedOut(after: .milliseconds(300)))
        #expect(error?.message == "The request timed out after 0.3 s. Try again.")
        #expect(records.count == 1)
        #expect(records.first?.errorCode == "timed_out")
        #expect(records.first?.status == nil)
        #expect(retries.waits.isEmpty)
    }

    @Test func theTimeOutMessageSaysTheClientsSeconds() {
        #expect(APIError.timedOut(after: .seconds(3)).message == "The request timed out after 3 s. Try again.")
        #expect(
            APIError.timedOut(after: .milliseconds(1500)).message == "The request timed out after 1.5 s. Try again.")
        #expect(
            APIError.timedOut(after: .milliseconds(250)).message == "The request timed out after 0.25 s. Try again.")
    }

    @Test func aLostAnswerIsStillAskedAgain() async throws {
        try await withLiveBackend { live in
            try await live.client.adminSetFaults(FaultSettings(offline: "drop"))
            let before = live.client.journal.records.count
            let error = await apiError { try await live.client.authMethods() }
            guard case .offline = error else {
                Issue.record("expected offline, got \(String(describing: error))")
                return
            }
            // The first attempt and both retries.
            #expect(live.client.journal.records.count - before == 3)
        }
    }

    @Test func timeoutsSuitWhereTheBackendIs() {
        #expect(AccountClient.Timeouts.defaults(for: "http://127.0.0.1:8080") == .loopback)
        #expect(AccountClient.Timeouts.defaults(for: "http://localhost:8080/api") == .loopback)
        #expect(AccountClient.Timeouts.defaults(for: "http://[::1]:8080") == .loopback)
        #expect(AccountClient.Timeouts.defaults(for: "https://api.example.com/api/v1") == .remote)
        #expect(AccountClient.Timeouts.loopback.request < AccountClient.Timeouts.remote.request)
        var configuration = AccountClient.Configuration(baseURL: "https://api.example.com")
        #expect(configuration.connectTimeout == AccountClient.Timeouts.remote.connect)
        configuration.setTimeout(seconds: 1.5)
        #expect(configuration.requestTimeout == .milliseconds(1500))
        #expect(configuration.connectTimeout == .milliseconds(1500))
        configuration.setTimeout(seconds: 30)
        #expect(configuration.requestTimeout == .seconds(30))
        #expect(configuration.connectTimeout == .milliseconds(1500))
    }
}

/// The waits the client asked for between GET retries.
final class RetryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Duration] = []
    var waits: [Duration] { lock.withLock { recorded } }
    func note(_ wait: Duration) { lock.withLock { recorded.append(wait) } }
}
