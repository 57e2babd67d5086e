import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import OpenAPIHummingbird
import Synchronization

/// The reference backend: the app's default server and QA's way to put the world into an edge state.
public enum ReferenceBackend {
    /// Who may use `/_admin` (codes, session minting, scenario resets, faults).
    public enum AdminAccess: Sendable, Equatable {
        /// Anyone who reaches the port: only allowed on a loopback address.
        case open
        /// Requests must carry `X-Admin-Token: TOKEN`.
        case token(String)
        /// `/_admin` is not served at all.
        case disabled
    }

    /// The header an admin request carries when the backend was started with a token.
    public static let adminTokenHeader = "X-Admin-Token"
    /// Shorter tokens are refused: the admin API hands out sessions and codes.
    public static let minimumAdminTokenLength = 16

    /// Loopback names and addresses: only processes on this machine can connect.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// What `serve --host … [--admin-token T | --no-admin]` amounts to, or why it is refused. The
    /// message is the whole story for QA: which option to add and what the admin client must send.
    public static func adminAccess(host: String, token: String?, disabled: Bool) throws -> AdminAccess {
        if disabled {
            guard token == nil else { throw ConfigurationError("--no-admin and --admin-token exclude each other") }
            return .disabled
        }
        if let token {
            guard token.count >= minimumAdminTokenLength else {
                throw ConfigurationError("--admin-token must be at least \(minimumAdminTokenLength) characters")
            }
            return .token(token)
        }
        guard isLoopback(host) else {
            throw ConfigurationError(
                "--host \(host) is reachable from other machines, and /_admin hands out sessions and codes: "
                    + "add --admin-token TOKEN (admin requests then send \(adminTokenHeader): TOKEN) or --no-admin")
        }
        return .open
    }

    /// One line for stderr at start, so whoever runs the server knows what its admin API allows.
    public static func describe(_ access: AdminAccess, host: String) -> String {
        switch access {
        case .open: return "admin API /_admin: open to this machine only (bound to \(host))"
        case .token: return "admin API /_admin: requires the \(adminTokenHeader) header"
        case .disabled: return "admin API /_admin: disabled (--no-admin)"
        }
    }

    /// How long a client may take over a request and how many may be connected at once (issue 25, item 3:
    /// idle connections and half-sent requests stayed open for ever). See `ConnectionGuard`.
    public struct ConnectionLimits: Sendable, Equatable {
        /// From a request's first byte to the end of its headers.
        public static let defaultHeaderTimeout: Duration = .seconds(10)
        /// From the end of the headers to the end of the body (bodies here are at most 64 KiB of JSON).
        public static let defaultBodyTimeout: Duration = .seconds(30)
        /// A connection with no request on it: before the first, and between kept-alive ones. Longer than
        /// AsyncHTTPClient's 60 s pool idle time, so the app's client lets a connection go before the server
        /// does and never sends into one the server is closing.
        public static let defaultIdleTimeout: Duration = .seconds(75)
        /// At some 20 KB a connection (13.6k of them took 284 MB in issue 25), about 10 MB at the cap.
        public static let defaultMaxConnections = 512
        /// While an answer waits on its client (the connection's outgoing buffer full), some of its bytes must
        /// reach the client within this (issue 45 item 1: clients that pipelined and never read held answers,
        /// and the connections, for ever). As long as the body's: a client on a slow link still makes progress.
        public static let defaultWriteTimeout: Duration = .seconds(30)

        public var headerTimeout: Duration
        public var bodyTimeout: Duration
        public var idleTimeout: Duration
        /// At the cap, a new connection pushes out the one that has waited longest on its client.
        public var maxConnections: Int
        public var writeTimeout: Duration

        public init(
            headerTimeout: Duration = defaultHeaderTimeout, bodyTimeout: Duration = defaultBodyTimeout,
            idleTimeout: Duration = defaultIdleTimeout, maxConnections: Int = defaultMaxConnections,
            writeTimeout: Duration = defaultWriteTimeout
        ) {
            self.headerTimeout = headerTimeout
            self.bodyTimeout = bodyTimeout
            self.idleTimeout = idleTimeout
            self.maxConnections = maxConnections
            self.writeTimeout = writeTimeout
        }
    }

    public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
        public var description: String
        init(_ description: String) { self.description = description }
    }

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
        /// `.open` is refused on a host other than loopback (see `adminAccess(host:token:disabled:)`).
        public var admin: AdminAccess
        /// Timeouts and the connection cap; tests make them short.
        public var connectionLimits = ConnectionLimits()
        /// `--data-dir`: one SQLite file per named world (`DIR/NAME.sqlite`), kept across restarts; nil:
        /// named worlds live in temporary files removed when they close. The default world follows `databasePath`.
        public var dataDirectory: String?
        /// `--max-worlds` and `--world-idle-minutes`.
        public var worldLimits = WorldLimits()
        /// What idleness is measured on: running by default; tests pass a frozen clock and move it.
        public var worldClock: BackendClock?
        /// Which rules the server keeps: every one (`RulePolicy.everyRule`), which is all the executable ever
        /// sets. conform's self-tests (Tests/AccessConformTests) break one on purpose, so each check is shown to
        /// report "broken" when its rule is not kept; no request can change it.
        public var rulePolicy = RulePolicy.everyRule
        /// The default world's clock, stopped at this time whatever its file saved: `accessdeck open-report`
        /// replays a session's tape from the moment its world was copied (issue 51 item 5). nil: as saved.
        public var clockStoppedAt: Date?

        public init(
            host: String = "127.0.0.1", port: Int = 0, databasePath: String? = nil, scenario: String = "default",
            fixturesDirectory: URL = Fixtures.defaultDirectory(), frozenClock: Bool? = nil,
            linkBase: String = "https://321.fit",
            logger: Logger = Logger(label: "accessdeck.backend", factory: { _ in SwiftLogNoOpLogHandler() }),
            admin: AdminAccess = .open
        ) {
            self.admin = admin
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
        if configuration.admin == .open, !isLoopback(configuration.host) {
            _ = try adminAccess(host: configuration.host, token: nil, disabled: false)
        }
        let settings = WorldSettings(
            catalog: ScenarioCatalog(directory: configuration.fixturesDirectory), scenario: configuration.scenario,
            linkBase: configuration.linkBase, frozenClock: configuration.frozenClock, admin: configuration.admin,
            loopbackOnly: isLoopback(configuration.host), logger: configuration.logger,
            policy: configuration.rulePolicy)
        let registry = try WorldRegistry(
            settings: settings, limits: configuration.worldLimits, dataDirectory: configuration.dataDirectory,
            clock: configuration.worldClock ?? BackendClock(frozen: false))
        // The bare paths' world: exactly the one backend a server was before worlds (issue 33).
        let world = try await World.open(
            name: WorldName.defaultWorld, path: configuration.databasePath, scenario: configuration.scenario,
            settings: settings, registry: registry, clockStoppedAt: configuration.clockStoppedAt,
            now: registry.clock.now())
        registry.setDefault(world)
        // A data directory an earlier run (or a larger --max-kept-worlds) left fuller than this one keeps.
        await registry.pruneKept()
        let backend = world.backend
        let store = backend.store
        let served = world.routes
        let responder = WorldsResponder(
            registry: registry,
            gate: RequestGate(loopbackOnly: settings.loopbackOnly, policy: configuration.rulePolicy))

        let connections = ConnectionRegistry(maxConnections: configuration.connectionLimits.maxConnections)
        let listener: Listener<WorldsResponder>
        do {
            listener = try await Listener(
                host: configuration.host, port: configuration.port, responder: responder,
                limits: configuration.connectionLimits, connections: connections, logger: configuration.logger)
        } catch {
            await world.close()
            throw error
        }
        // A `refused` fault stops the whole port, so only the default world may set one.
        backend.refusals.connect(listener)
        registry.startSweeping()
        return RunningBackend(
            host: configuration.host, port: listener.port, routes: served, listener: listener, store: store,
            connections: connections, clock: backend.clock, faults: backend.faults, world: world, worlds: registry)
    }
}

/// A started backend. Signals are the caller's business (see `accessdeck serve`); call `shutdown()` to stop.
public final class RunningBackend: Sendable {
    public let host: String
    public let port: Int
    /// The backend's time: the embedded app's clock follows it.
    public let clock: BackendClock
    /// "METHOD /path" of every route the server answers, as its router lists them.
    public let routes: [String]
    /// The SQLite file in use (a temporary one is deleted by `shutdown()`).
    public var databasePath: String { store.path }
    private let listener: Listener<WorldsResponder>
    let store: Store
    private let connections: ConnectionRegistry
    private let faults: FaultService
    /// The default world (the bare paths).
    private let world: World
    /// Every world, the default one included (issue 33).
    let worlds: WorldRegistry
    private let finishing = Mutex<Task<Void, Never>?>(nil)

    init(
        host: String, port: Int, routes: [String], listener: Listener<WorldsResponder>, store: Store,
        connections: ConnectionRegistry,
        clock: BackendClock, faults: FaultService, world: World, worlds: WorldRegistry
    ) {
        self.connections = connections
        self.host = host
        self.clock = clock
        self.port = port
        self.routes = routes
        self.listener = listener
        self.store = store
        self.faults = faults
        self.world = world
        self.worlds = worlds
    }

    public var baseURL: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)"
    }

    /// World `name`'s time (nil: the default world), read in process each time: the embedded app's clock after
    /// a world switch (issue 33). A world dropped while idle and opened again has a new clock, which is then
    /// read; while it is closed, the time last read stands (nothing moves a closed world's clock). The switch
    /// opens the world (its admin clock) before the first read; a read before any would get the default world's.
    public func worldClock(_ name: String?) -> @Sendable () -> Date {
        let name = name ?? WorldName.defaultWorld
        let last = Mutex<Date?>(nil)
        return { [worlds, clock] in
            guard let now = worlds.openClock(name)?.now() else { return last.withLock { $0 } ?? clock.now() }
            last.withLock { $0 = now }
            return now
        }
    }

    /// The default world as one standalone SQLite file, as `GET /_admin/worlds/default/file` gives it, read in
    /// process: the app copies its world at the start without a row in the journal (issue 51 item 5).
    public func worldFile() throws -> Data { try world.fileCopy() }

    /// Ends a `refused` fault now and returns once the port listens again: the only way to end one early,
    /// since `DELETE /_admin/faults` cannot reach a port that refuses connections.
    public func endRefusal() async {
        await listener.endRefusal()
    }

    /// Connections open, and how many of them have a request being answered (for tests of the cap).
    var connectionCounts: (open: Int, answering: Int) { connections.counts }

    /// Whether a `refused` fault is on (the port refuses connections until it ends).
    public var isRefusing: Bool { faults.current.offline == FaultService.Offline.refused.rawValue }

    /// Stops listening, lets requests in flight finish, saves what a restart on the same file puts back.
    public func shutdown() async {
        await listener.shutdown()
        await finish()
    }

    /// Returns when the server has stopped (after `shutdown()`), everything saved.
    public func waitUntilStopped() async throws {
        do {
            try await listener.waitUntilStopped()
        } catch {
            await finish()
            throw error
        }
        await finish()
    }

    /// Every world's last save, then its temporary database's removal and its lock's release: exactly once, whoever
    /// comes first (`shutdown()` and `waitUntilStopped()` may both finish); a second caller waits for the first.
    private func finish() async {
        let task = finishing.withLock { current -> Task<Void, Never> in
            if let current { return current }
            let (world, worlds) = (world, worlds)
            let task = Task {
                // Each world saves, removes its temporary file and lets go of its lock.
                await worlds.shutdown()
                await world.close()
            }
            current = task
            return task
        }
        await task.value
    }
}
