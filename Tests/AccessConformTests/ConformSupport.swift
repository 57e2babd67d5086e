import AccessBackend
import AccessBackendTesting
import AccessConform
import AccessCore
import Foundation
import Synchronization

/// A conform run against a real reference backend over HTTP on 127.0.0.1, optionally with rules broken on
/// purpose (`policy`, a `RulePolicy` that breaks them; the executable's keeps every rule). Like `accessdeck conform`, the run has a
/// world of its own, except when `before` sets the default world up (faults) for it: then it runs there, unless
/// `inWorld` says otherwise.
/// `after` looks at the backend once the run is over. The server holds `conformMaxWorlds` worlds, so the
/// `admin.world_limit` check fills it up to its cap and is kept (it opens at most `Catalogue.mostWorldsToFill`).
func conform(
    _ selection: Selection = Selection(), policy: RulePolicy = .everyRule,
    before: ((TestBackend) async throws -> Void)? = nil,
    messages: ((ConformHTTP) -> any MessageSource)? = nil, adminToken: String? = nil, inWorld: Bool? = nil,
    maxWorlds: Int = conformMaxWorlds, baseWorld: String? = nil, settings: ConformSettings = ConformSettings(),
    clock: ConformTestClock = .frozen,
    after: (TestBackend) async throws -> Void = { _ in }
) async throws -> ConformRun {
    var configuration = TestBackend.configuration()
    configuration.rulePolicy = policy
    configuration.worldLimits = .init(maxWorlds: maxWorlds)
    // `.running`: as `accessdeck serve` starts, each scenario's clock runs with wall time unless it says otherwise.
    if clock == .running { configuration.frozenClock = nil }
    if let adminToken { configuration.admin = .token(adminToken) }
    return try await TestBackend.with(configuration: configuration) { backend in
        try await before?(backend)
        // `baseWorld`: a base URL that names a world, as the app's panel gives (`/w/conform`).
        let base = backend.running.baseURL + (baseWorld.map { "/w/\($0)" } ?? "")
        let server = ConformHTTP(baseURL: base, adminToken: adminToken)
        var reference = await ReferenceAdmin.detect(server)
        let world = (inWorld ?? (before == nil)) ? await ConformWorld.open(server) : nil
        if let world { reference = reference?.inWorld(world) }
        let http = world?.http ?? server
        let source = messages?(http) ?? OutboxSource(http: http)
        let runner = ConformRunner(http: http, messages: source, reference: reference, settings: settings)
        let run = await runner.run(selection)
        if let world, let note = await world.close() { throw ConformSupportError(note) }
        await server.shutdown()
        try await after(backend)
        return run
    }
}

let conformMaxWorlds = 4

/// The clock a conform test's reference backend starts with: stopped, as every test's, or running with wall time.
enum ConformTestClock {
    case frozen
    case running
}

struct ConformSupportError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
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
