import Foundation
import Hummingbird
import Logging
import NIOCore
import OpenAPIHummingbird
import ServiceLifecycle
import Synchronization

/// The reference backend: the app's default server and QA's way to put the world into an edge state.
public enum ReferenceBackend {
    public struct Configuration: Sendable {
        public var host: String
        /// 0: any free port; the real one is on `RunningBackend.port`.
        public var port: Int
        /// nil: a temporary database removed at shutdown; a path: state survives restarts.
        public var databasePath: String?
        /// Loaded when the database holds no scenario yet (always, for a temporary database).
        public var scenario: String
        /// The folder holding `scenarios/`.
        public var fixturesDirectory: URL
        /// nil: the scenario decides (running unless it says frozen). Tests pass true.
        public var frozenClock: Bool?
        /// Where email links point.
        public var linkBase: String
        /// Silent by default: the embedded backend shares the terminal with the curses UI, where any
        /// stderr line would corrupt the screen. `serve` passes a stderr logger at `.warning`.
        public var logger: Logger

        public init(
            host: String = "127.0.0.1", port: Int = 0, databasePath: String? = nil, scenario: String = "default",
            fixturesDirectory: URL = Fixtures.defaultDirectory(), frozenClock: Bool? = nil,
            linkBase: String = "https://321.fit",
            logger: Logger = Logger(label: "accessdeck.backend", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.host = host
            self.port = port
            self.databasePath = databasePath
            self.scenario = scenario
            self.fixturesDirectory = fixturesDirectory
            self.frozenClock = frozenClock
            self.linkBase = linkBase
            self.logger = logger
        }
    }

    /// Opens the database, loads the scenario if needed and returns once the server accepts connections.
    public static func start(_ configuration: Configuration) async throws -> RunningBackend {
        let catalog = ScenarioCatalog(directory: configuration.fixturesDirectory)
        // Fail before binding: an unknown or broken scenario is the commonest mistake.
        _ = try catalog.load(configuration.scenario)
        let store = try Store.open(path: configuration.databasePath)
        let backend = Backend(
            store: store, clock: BackendClock(frozen: configuration.frozenClock ?? false), catalog: catalog,
            linkBase: configuration.linkBase, frozenOverride: configuration.frozenClock)
        if let loaded = try await backend.scenarios.loadedName() {
            if loaded != configuration.scenario {
                configuration.logger.warning(
                    "database already holds a scenario; keeping it (POST /_admin/scenario resets)",
                    metadata: ["kept": "\(loaded)", "requested": "\(configuration.scenario)"])
            }
        } else {
            _ = try await backend.scenarios.load(configuration.scenario)
        }

        let router = Router(context: AppContext.self)
        router.add(
            middleware: GatewayMiddleware(faults: backend.faults, journal: backend.journal, clock: backend.clock))
        let handler = ContractHandler(backend: backend)
        // The routes are known only once registered, and the middleware that answers 405 for them
        // must be in place before they are: a throwaway router lists them first.
        let probe = Router(context: AppContext.self)
        try handler.registerHandlers(on: probe)
        let routes = probe.routes.map(\.description)
        router.add(middleware: ContractScopeMiddleware(routes: RouteTable(routes)))
        try handler.registerHandlers(on: router, middlewares: [ExplicitNullMiddleware()])
        let served = router.routes.map(\.description)

        let ready = PortSignal()
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in ready.resolve(.success(channel.localAddress?.port ?? 0)) },
            logger: configuration.logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: configuration.logger))
        let task = Task {
            do {
                try await group.run()
                ready.resolve(.failure(CancellationError()))
            } catch {
                ready.resolve(.failure(error))
                throw error
            }
        }
        let port: Int
        do {
            port = try await ready.wait()
        } catch {
            store.removeIfTemporary()
            throw error
        }
        return RunningBackend(
            host: configuration.host, port: port, routes: served, group: group, task: task, store: store)
    }
}

/// A started backend. Signals are the caller's business (see `accessdeck serve`); call `shutdown()` to stop.
public final class RunningBackend: Sendable {
    public let host: String
    public let port: Int
    /// "METHOD /path" of every route the server answers, as its router lists them.
    public let routes: [String]
    /// The SQLite file in use (a temporary one is deleted by `shutdown()`).
    public var databasePath: String { store.path }
    private let group: ServiceGroup
    private let task: Task<Void, any Error>
    private let store: Store
    private let cleaned = Mutex(false)

    init(host: String, port: Int, routes: [String], group: ServiceGroup, task: Task<Void, any Error>, store: Store) {
        self.host = host
        self.port = port
        self.routes = routes
        self.group = group
        self.task = task
        self.store = store
    }

    public var baseURL: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)"
    }

    public func shutdown() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        cleanUp()
    }

    /// Returns when the server has stopped (after a signal or `shutdown()`).
    public func waitUntilStopped() async throws {
        defer { cleanUp() }
        try await task.value
    }

    /// `shutdown()` and `waitUntilStopped()` may both finish; the database is closed exactly once.
    private func cleanUp() {
        let first = cleaned.withLock { done in
            defer { done = true }
            return !done
        }
        if first { store.removeIfTemporary() }
    }
}

/// One-shot hand-over of the bound port (or the startup error) from the server task.
private final class PortSignal: Sendable {
    private let state = Mutex<(result: Result<Int, any Error>?, waiter: CheckedContinuation<Int, any Error>?)>(
        (nil, nil))

    func resolve(_ result: Result<Int, any Error>) {
        let waiter: CheckedContinuation<Int, any Error>? = state.withLock { s in
            guard s.result == nil else { return nil }
            s.result = result
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(with: result)
    }

    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { s in
                if let result = s.result { return result }
                s.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
