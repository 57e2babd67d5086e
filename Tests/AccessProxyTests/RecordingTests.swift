import AccessAPI
import AccessBackend
import AccessBackendTesting
import AccessCore
import AccessProxy
import Foundation
import Testing

/// Issue 52 item 5: `--record DIR` keeps the exchanges, redacted, and `--replay DIR` checks them again offline:
/// the same findings as the live run, contract breaks and rule verdicts alike, from a file that holds no secret.
@Suite struct RecordingTests {
    @Test func aReplayFindsWhatTheLiveRunFound() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = TestBackend.configuration()
        configuration.rulePolicy = .breaking(.rateLimitCooldown)
        try await TestBackend.with(configuration: configuration) { backend in
            var proxyConfiguration = AccessProxy.Configuration(
                upstream: try AccessProxy.upstream(backend.running.baseURL))
            proxyConfiguration.record = directory
            let proxy = try await AccessProxy.start(proxyConfiguration)
            let through = backend.through(proxy.baseURL)
            let session = try await through.signIn()
            let id = try await RuleWatchTests.start(through)
            // Broken: a resend at once.
            #expect(try await RuleWatchTests.resend(through, id).status == 202)
            let code = try await through.lastCode(to: RuleWatchTests.phone)
            // Kept: the code after its lifetime.
            _ = try await through.advance(seconds: CodeRules.lifetime + 1)
            #expect(try await RuleWatchTests.verify(through, id, code).status == 410)
            // A contract break: a path no operation has.
            #expect(try await through.get("/no/such/operation", token: session.accessToken).status == 404)
            await proxy.log.waitUntilSettled()
            let live = proxy.log.findings
            await proxy.shutdown()

            #expect(live.rules.contains { $0.state == .broken })
            #expect(live.rules.contains { $0.state == .kept })
            #expect(!live.contractBreaks.isEmpty)
            let replayed = try Replay.findings(directory: directory)
            #expect(replayed == live)

            let recording = try String(
                contentsOf: directory.appendingPathComponent("exchanges.jsonl"), encoding: .utf8)
            #expect(recording.split(separator: "\n").count == live.exchanges)
            // The code is 6 digits: looked for as the JSON string it would be.
            for secret in [session.accessToken, session.refreshToken, "\"\(code)\""] {
                #expect(!recording.contains(secret), "the recording holds a secret")
            }
        }
    }

    @Test func aDirectoryWithoutARecordingIsAClearError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("none-\(UUID().uuidString)")
        #expect(throws: Replay.Failure.self) { try Replay.findings(directory: directory) }
    }
}
