import AccessAPI
import AccessCore
import Foundation
import GRDB
import Hummingbird
import Logging
import Synchronization

/// What every world of one server shares: where scenarios come from, how links read, who may use `/_admin`.
struct WorldSettings: Sendable {
    let catalog: ScenarioCatalog
    /// `--scenario`: what a world made on first use starts from.
    let scenario: String
    let linkBase: String
    let frozenClock: Bool?
    let admin: ReferenceBackend.AdminAccess
    let loopbackOnly: Bool
    let logger: Logger
    /// `ReferenceBackend.Configuration.rulePolicy`, for every world's store, gate and the worlds admin API.
    var policy = RulePolicy.everyRule
}

/// One complete backend state, as one server had before issue 33: its own SQLite file (`Store`), clock,
/// faults, journal, outbox and scenario epoch, behind its own router. Nothing is shared between two worlds
/// but the process, the port and the scenario catalogue.
final class World: Sendable {
    let name: String
    let backend: Backend
    let responder: WorldResponder
    /// "METHOD /path" of every route, as the router lists them.
    let routes: [String]
    private let saver: StateSaver?
    private let lock: DatabaseLock?
    /// An uploaded world without `--data-dir` lives in a file the store does not know as temporary.
    private let removeFilesOnClose: Bool
    private let logger: Logger

    /// Requests being answered and the registry's time of the last one (`WorldRegistry` drops idle worlds).
    private struct Usage {
        var active = 0
        var lastUsed: Date
    }
    private let usage: Mutex<Usage>

    /// Its file survives a restart (`--data-dir`, or `--db` for the default world).
    var kept: Bool { !backend.store.isTemporary && !removeFilesOnClose }

    private init(
        name: String, backend: Backend, responder: WorldResponder, routes: [String],
        saver: StateSaver?, lock: DatabaseLock?, removeFilesOnClose: Bool, logger: Logger, now: Date
    ) {
        self.name = name
        self.backend = backend
        self.responder = responder
        self.routes = routes
        self.saver = saver
        self.lock = lock
        self.removeFilesOnClose = removeFilesOnClose
        self.logger = logger
        usage = Mutex(Usage(lastUsed: now))
    }

    /// Opens the database at `path` (nil: a temporary one), loads `scenario` when it holds none yet, puts back
    /// the faults, clock and journal an earlier run saved in it, and builds the world's router.
    static func open(
        name: String, path: String?, scenario: String, settings: WorldSettings, registry: WorldRegistry,
        removeFilesOnClose: Bool = false, clockStoppedAt: Date? = nil, now: Date
    ) async throws -> World {
        // Fail before touching the file: an unknown or broken scenario is the commonest mistake.
        let checked = try settings.catalog.load(scenario)
        // Before opening: a second server must not touch the file at all (a temporary one is never shared).
        let lock = try path.map { try DatabaseLock.acquire(databasePath: $0) }
        let store: Store
        do {
            store = try Store.open(path: path)
        } catch {
            lock?.release()
            throw error
        }
        let backend = Backend(
            store: store, clock: BackendClock(frozen: settings.frozenClock ?? false), catalog: settings.catalog,
            linkBase: settings.linkBase, frozenOverride: settings.frozenClock)
        do {
            // A temporary database is new and holds no scenario yet.
            if !store.isTemporary, let loaded = try await backend.scenarios.loadedName() {
                if loaded != scenario {
                    settings.logger.warning(
                        "database already holds a scenario; keeping it (POST /_admin/scenario resets)",
                        metadata: ["world": "\(name)", "kept": "\(loaded)", "requested": "\(scenario)"])
                }
            } else {
                _ = try await backend.scenarios.load(scenario, checked: checked)
            }
        } catch {
            store.removeIfTemporary()
            lock?.release()
            throw error
        }
        // Faults, the clock and the journal an earlier run on this file left; a temporary database has none.
        let saver =
            store.isTemporary
            ? nil : StateSaver(store: store, faults: backend.faults, clock: backend.clock, journal: backend.journal)
        do {
            try saver?.restore()
        } catch {
            settings.logger.warning(
                "could not read the saved faults, clock and journal; starting without", metadata: ["world": "\(name)"])
        }
        if let clockStoppedAt { backend.clock.reset(start: clockStoppedAt, frozen: true) }
        let (responder, routes) = try makeResponder(
            backend: backend, settings: settings, registry: registry, world: name)
        saver?.start(logger: settings.logger)
        return World(
            name: name, backend: backend, responder: responder, routes: routes, saver: saver, lock: lock,
            removeFilesOnClose: removeFilesOnClose, logger: settings.logger, now: now)
    }

    /// The router every world has had since before worlds: the gateway, the contract scope and the generated
    /// routes, bound to this world's backend; in front of it, the short way of the hot reads through the same
    /// gateway and contract scope (`WorldResponder`).
    private static func makeResponder(
        backend: Backend, settings: WorldSettings, registry: WorldRegistry, world: String
    ) throws -> (WorldResponder, [String]) {
        // HEAD is answered as GET without the body (RFC 9110 §9.3.2), for every GET route.
        let router = Router(context: AppContext.self, options: .autoGenerateHeadEndpoints)
        let routes = RouteTable()
        let gateway = GatewayMiddleware(
            faults: backend.faults, journal: backend.journal, clock: backend.clock, admin: settings.admin,
            routes: routes,
            gate: RequestGate(loopbackOnly: settings.loopbackOnly, policy: settings.policy))
        let contractScope = ContractScopeMiddleware(policy: settings.policy, digest: backend.store.digest)
        router.add(middleware: gateway)
        router.add(middleware: contractScope)
        let handler = ContractHandler(backend: backend, worlds: registry, world: world)
        try handler.registerHandlers(
            on: router, configuration: ContractEncoding.configuration, middlewares: [ExplicitNullMiddleware()])
        // The gateway answers 405 for a known path asked with another method: it learns the
        // paths once every route is in. Asked for once: the router walks its whole tree for the list, some
        // 2.6 M instructions of each start (issue 34). Listed before the responder is built, which adds the
        // HEAD routes.
        let routeList = router.routes
        routes.load(routeList)
        let served = routeList.map(\.description)
        let responder = WorldResponder(
            router: router.buildResponder(), gateway: gateway, contractScope: contractScope,
            hotReads: HotReads(handler: handler))
        return (responder, served)
    }

    // MARK: Use

    /// A request starts; called under the registry's lock, so an idle sweep never drops a world being entered.
    func begin(at now: Date) {
        usage.withLock { u in
            u.active += 1
            u.lastUsed = max(u.lastUsed, now)
        }
    }

    func end(at now: Date) {
        usage.withLock { u in
            u.active -= 1
            u.lastUsed = max(u.lastUsed, now)
        }
    }

    /// Kept open without counting as a use (its idle time goes on): while the worlds are listed.
    func hold() {
        usage.withLock { $0.active += 1 }
    }

    func release() {
        usage.withLock { $0.active -= 1 }
    }

    /// Returns once no request is being answered in it (a `timeout` fault holds one for at most a minute).
    func quiesce() async {
        let deadline = ContinuousClock.now + FaultService.longestHold + .seconds(5)
        while usage.withLock({ $0.active > 0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// No request in it, and none for `limit`: the registry may drop it.
    func isIdle(at now: Date, limit: TimeInterval) -> Bool {
        usage.withLock { $0.active == 0 && now.timeIntervalSince($0.lastUsed) >= limit }
    }

    var requestsInFlight: Int {
        usage.withLock { $0.active }
    }

    func idleSeconds(at now: Date) -> Int {
        usage.withLock { max(0, Int(now.timeIntervalSince($0.lastUsed).rounded(.down))) }
    }

    // MARK: Files

    /// The world as one standalone SQLite file: its faults, clock and journal saved into it first, a
    /// consistent copy (VACUUM INTO) taken while it runs, and its key written inside the copy the way a
    /// database from before kept it, so that `Store.open` anywhere moves the key out beside it again.
    func fileCopy() throws -> Data {
        let store = backend.store
        // A temporary world has no saver; one made for the copy writes the same rows a kept world keeps.
        try (saver ?? StateSaver(store: store, faults: backend.faults, clock: backend.clock, journal: backend.journal))
            .save()
        let directory = try TemporaryDatabase.privateDirectory(base: FileManager.default.temporaryDirectory)
        // Named like a temporary database, so a crash before the removal leaves nothing the next start keeps.
        let copy = directory + "/\(TemporaryDatabase.filePrefix)\(getpid())-\(UUID().uuidString.lowercased()).sqlite"
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: copy + suffix)
            }
        }
        try store.pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
        PrivateFiles.restrictDatabase(at: copy)
        let queue = try DatabaseQueue(path: copy)
        try queue.writeWithoutTransaction { db in
            // One file, no -wal beside it: `Store.open` switches it back to WAL.
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.inTransaction {
                try store.key.embed(in: db)
                return .commit
            }
        }
        try queue.close()
        return try Data(contentsOf: URL(fileURLWithPath: copy))
    }

    /// The last save, then the temporary database's removal and the lock's release.
    func close() async {
        do {
            try await saver?.stop()
        } catch {
            logger.error("could not save faults, clock and journal", metadata: ["world": "\(name)"])
        }
        let store = backend.store
        store.removeIfTemporary()
        // A named world's file may be opened again by its next request, or deleted: let go of it now. The
        // default world's closes with the process, as it always has.
        if name != WorldName.defaultWorld, !store.isTemporary {
            try? store.pool.close()
            // What `--max-kept-worlds` orders closed worlds by (`WorldRegistry.pruneKept`).
            if !removeFilesOnClose {
                PrivateFiles.setModificationTime(of: store.path, to: usage.withLock { $0.lastUsed })
            }
        }
        if removeFilesOnClose { World.removeFiles(of: store.path) }
        // Only after the last save: the next server on the file starts from everything.
        lock?.release()
    }

    /// The database, its -wal and -shm, its key and its lock file.
    static func removeFiles(of path: String) {
        for suffix in ["", "-wal", "-shm", Store.keyFileSuffix, DatabaseLock.suffix] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
