import AccessBackend
import AccessBackendTesting
import AccessConform
import AccessCore
import Foundation
import Synchronization

/// A conform run against a real reference backend over HTTP on 127.0.0.1, optionally with rules broken on
/// purpose (`conformSelfTestBrokenRules`, which only tests can set).
func conform(
    _ selection: Selection = Selection(), broken: Set<Rule> = [],
    before: (TestBackend) async throws -> Void = { _ in },
    messages: ((ConformHTTP) -> any MessageSource)? = nil, adminToken: String? = nil
) async throws -> ConformRun {
    var configuration = TestBackend.configuration()
    configuration.conformSelfTestBrokenRules = broken
    if let adminToken { configuration.admin = .token(adminToken) }
    return try await TestBackend.with(configuration: configuration) { backend in
        try await before(backend)
        let http = ConformHTTP(baseURL: backend.running.baseURL, adminToken: adminToken)
        let reference = await ReferenceAdmin.detect(http)
        let source = messages?(http) ?? OutboxSource(http: http)
        let runner = ConformRunner(http: http, messages: source, reference: reference, settings: ConformSettings())
        let run = await runner.run(selection)
        await http.shutdown()
        return run
    }
}

extension ConformRun {
    func verdict(_ rule: Rule) -> Verdict? { results.first { $0.rule == rule }?.verdict }

    var checked: [RuleResult] { results.filter { $0.verdict != .notChecked } }
}

/// Hands out what the outbox has and remembers every code and link token, so a test can look for them in the
/// output.
final class RecordingSource: MessageSource, Sendable {
    let inner: any MessageSource
    let seen = Mutex<[String]>([])
    var name: String { "recording" }

    init(_ inner: any MessageSource) { self.inner = inner }

    func latest(_ kind: MessageKind, to destination: String) async throws -> String {
        let secret = try await inner.latest(kind, to: destination)
        seen.withLock { $0.append(secret) }
        return secret
    }
}
