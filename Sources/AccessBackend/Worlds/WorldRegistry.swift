import AccessAPI
import Foundation
import GRDB
import Hummingbird
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Name → world for one server (issue 33): makes a world on its first request from `--scenario` (or
/// `POST /_admin/worlds`), lists, deletes, downloads and uploads them, drops the idle ones and caps how
/// many are open. The default world (the bare paths) is held here too but never counted, dropped or deleted.
final class WorldRegistry: Sendable {
    typealias Limits = ReferenceBackend.WorldLimits

    /// An uploaded world file is read whole into memory: a scenario's world with a full journal is well
    /// under 4 MB.
    static let maxUploadBytes = 16 * 1024 * 1024
    /// How often idle worlds are looked for besides every list, create and first use.
    static let sweepInterval: Duration = .seconds(30)

    private enum Entry {
        case open(World)
        /// Being opened by its first request: others asking for it wait for the same opening.
        case opening(Task<World, any Error>)
        /// Being closed (idle, deleted, the server stopping): it still holds its database, so it counts toward
        /// `--max-worlds` until it is closed (issue 45 item 3). A request for its name waits for the close.
        case closing(Task<Void, any Error>)
        /// A closed world's files being removed (deleted, or beyond `--max-kept-worlds`): not counted, but its
        /// name waits as for a close, so that nothing opens the file while it goes.
        case removing(Task<Void, any Error>)

        /// The close or removal under way.
        var ending: Task<Void, any Error>? {
            switch self {
            case .closing(let task), .removing(let task): return task
            case .open, .opening: return nil
            }
        }
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var defaultWorld: World?

        /// What `--max-worlds` counts: every world holding its database, being opened or closed included.
        var worldCount: Int {
            entries.values.reduce(0) { count, entry in
                if case .removing = entry { return count }
                return count + 1
            }
        }
    }

    let settings: WorldSettings
    let limits: Limits
    /// `--data-dir`: one `NAME.sqlite` per world, kept across restarts; nil: temporary files.
    let dataDirectory: String?
    /// The registry's own time, for idleness: not a world's clock, which its tester moves at will.
    let clock: BackendClock
    /// Names this run of the server, new at every start (`GET /_admin/state`'s `instance`): a client that saw
    /// another knows the backend restarted, which the epoch cannot tell (a fresh database starts it over).
    let instance = UUID().uuidString.lowercased()
    private let state = Mutex(State())
    private let sweeper = Mutex<Task<Void, Never>?>(nil)

    init(settings: WorldSettings, limits: Limits, dataDirectory: String?, clock: BackendClock) throws {
        self.settings = settings
        self.limits = limits
        self.dataDirectory = dataDirectory
        self.clock = clock
        if let dataDirectory {
            do {
                try PrivateFiles.prepareDirectory(at: dataDirectory)
            } catch let error as StoreError {
                throw ReferenceBackend.ConfigurationError("--data-dir: \(error.description)")
            }
        }
    }

    func setDefault(_ world: World) {
        state.withLock { $0.defaultWorld = world }
    }

    /// nil once the server has shut down.
    var defaultWorld: World? {
        state.withLock { $0.defaultWorld }
    }

    private func path(of name: String) -> String? {
        dataDirectory.map { "\($0)/\(name).sqlite" }
    }

    private func isStored(_ name: String) -> Bool {
        path(of: name).map { FileManager.default.fileExists(atPath: $0) } ?? false
    }

    /// World `name`'s clock while it is open, without entering it (nothing counts as its use): the embedded
    /// app's clock reads it in process.
    func openClock(_ name: String) -> BackendClock? {
        state.withLock { s in
            if name == WorldName.defaultWorld { return s.defaultWorld?.backend.clock }
            guard case .open(let world) = s.entries[name] else { return nil }
            return world.backend.clock
        }
    }

    /// Requests being answered in world `name` while it is open; nil when it is not. For tests.
    func requestsInFlight(_ name: String) -> Int? {
        state.withLock { s in
            guard case .open(let world) = s.entries[name] else { return nil }
            return world.requestsInFlight
        }
    }

    // MARK: Requests

    /// Runs `body` with the world `name`, counted as in use. A world that is not open is made (from
    /// `--scenario`) or opened (from `--data-dir`) only when `admit` lets the request through: a request the
    /// world would refuse anyway must not cost one (issue 45 item 4).
    func serve<T>(_ name: String, admit: () throws -> Void, _ body: (World) async throws -> T) async throws -> T {
        let world = try await enter(name, create: true, admit: admit)
        defer { world.end(at: clock.now()) }
        return try await body(world)
    }

    private enum Lookup {
        case ready(World)
        case wait(Task<World, any Error>)
        /// Being closed or removed: asked again once that is done.
        case ending(Task<Void, any Error>)
        case absent
    }

    /// The world, marked in use: open, being opened, opened from `--data-dir`, or (`create`) made.
    private func enter(_ name: String, create: Bool, admit: () throws -> Void = {}) async throws -> World {
        try WorldName.validate(name)
        while true {
            let now = clock.now()
            switch lookUp(name, at: now) {
            case .ready(let world): return world
            case .wait(let task): return try await entered(task, at: now)
            case .ending(let task):
                _ = try? await task.value
                continue
            case .absent: break
            }
            guard create || isStored(name) else { throw BackendError.unknownWorld(name) }
            try admit()
            await dropIdle()
            let found = try state.withLock { s -> Lookup in
                // Made, closed or removed meanwhile.
                let found = Self.find(name, in: s, at: now)
                guard case .absent = found else { return found }
                guard s.worldCount < limits.maxWorlds else {
                    throw BackendError.worldLimit(limits.maxWorlds, idleMinutes: limits.idleMinutes)
                }
                let task = openingTask(name) {
                    try await World.open(
                        name: name, path: self.path(of: name), scenario: self.settings.scenario,
                        settings: self.settings, registry: self, now: now)
                }
                s.entries[name] = .opening(task)
                return .wait(task)
            }
            switch found {
            case .ready(let world): return world
            case .wait(let task): return try await entered(task, at: now)
            case .ending(let task): _ = try? await task.value
            case .absent: continue
            }
        }
    }

    private func lookUp(_ name: String, at now: Date) -> Lookup {
        state.withLock { s in
            if name == WorldName.defaultWorld, let world = s.defaultWorld {
                world.begin(at: now)
                return .ready(world)
            }
            return Self.find(name, in: s, at: now)
        }
    }

    /// Under the lock: the named world marked in use if it is open, else what to wait for.
    private static func find(_ name: String, in s: State, at now: Date) -> Lookup {
        switch s.entries[name] {
        case .open(let world):
            world.begin(at: now)
            return .ready(world)
        case .opening(let task): return .wait(task)
        case .closing(let task), .removing(let task): return .ending(task)
        case nil: return .absent
        }
    }

    /// Waits for an opening, then marks the world in use under the lock, unless a sweep or a delete took it
    /// out meanwhile (then it is asked for again).
    private func entered(_ task: Task<World, any Error>, at now: Date) async throws -> World {
        let world = try await task.value
        let entered = state.withLock { s -> Bool in
            guard case .open(let current) = s.entries[world.name], current === world else { return false }
            world.begin(at: now)
            return true
        }
        return entered ? world : try await enter(world.name, create: false)
    }

    /// The task that opens a world and files it as open, or forgets the name when the opening fails. A world
    /// deleted (or the server stopped) while it opened is closed here: nobody else holds it.
    private func openingTask(
        _ name: String, _ open: @escaping @Sendable () async throws -> World
    ) -> Task<
        World, any Error
    > {
        Task {
            let world: World
            do {
                world = try await open()
            } catch {
                state.withLock { s in
                    if case .opening = s.entries[name] { s.entries[name] = nil }
                }
                throw error
            }
            let filed = state.withLock { s -> Bool in
                guard case .opening = s.entries[name] else { return false }
                s.entries[name] = .open(world)
                return true
            }
            if !filed { await world.close() }
            return world
        }
    }

    /// The task that closes a world or removes its files (`end`), then frees its name. Made under the lock with
    /// the entry it goes in; nothing replaces a closing or removing entry but `shutdown()`, which empties them
    /// all, so the ending entry found at the end is this one.
    private func endingTask(
        _ name: String, _ end: @escaping @Sendable () async throws -> Void
    ) -> Task<Void, any Error> {
        Task {
            defer {
                state.withLock { s in
                    if s.entries[name]?.ending != nil { s.entries[name] = nil }
                }
            }
            try await end()
        }
    }

    /// Returns once no close or removal of `name` is under way.
    private func settle(_ name: String) async {
        while let task = state.withLock({ $0.entries[name]?.ending }) {
            _ = try? await task.value
        }
    }

    // MARK: Admin

    /// `POST /_admin/worlds {name, scenario}`.
    func create(_ name: String, scenario: String?) async throws -> World {
        await settle(name)
        try refuseNew(name)
        let scenario = scenario ?? settings.scenario
        _ = try settings.catalog.load(scenario)
        return try await make(name) { now in
            try await World.open(
                name: name, path: self.path(of: name), scenario: scenario, settings: self.settings, registry: self,
                now: now)
        }
    }

    /// `POST /_admin/worlds?name=` with a world file: checked, put in place and opened as it is.
    func upload(_ name: String, file: Data) async throws -> World {
        await settle(name)
        try refuseNew(name)
        let staged = try WorldFile.stage(file)
        do {
            try WorldFile.check(staged)
            let target = try path(of: name) ?? TemporaryDatabase.makePath()
            let removeFilesOnClose = dataDirectory == nil
            // Put in place only once the name is the upload's (`make`), so two uploads never share a file.
            return try await make(name) { now in
                do {
                    // A key file left beside a world deleted by hand would not be this file's key.
                    World.removeFiles(of: target)
                    guard rename(staged, target) == 0 else {
                        throw StoreError("cannot move the upload into place: \(String(cString: strerror(errno)))")
                    }
                    return try await World.open(
                        name: name, path: target, scenario: self.settings.scenario, settings: self.settings,
                        registry: self, removeFilesOnClose: removeFilesOnClose, now: now)
                } catch is StoreError {
                    World.removeFiles(of: target)
                    throw BackendError.worldFileInvalid(
                        "it does not open here. A world file carries its key inside it: take one from "
                            + "GET /_admin/worlds/NAME/file, not from the data directory.")
                } catch is DatabaseError {
                    // Its schema is ours (`WorldFile.check`), so its rows are what SQLite would not take.
                    World.removeFiles(of: target)
                    throw BackendError.worldFileInvalid("its rows do not load here.")
                } catch {
                    World.removeFiles(of: target)
                    throw error
                }
            }
        } catch {
            World.removeFiles(of: staged)
            throw error
        }
    }

    private func refuseNew(_ name: String) throws {
        try WorldName.validate(name)
        guard name != WorldName.defaultWorld else { throw BackendError.worldDefault }
        let taken = state.withLock { $0.entries[name] != nil }
        if taken || isStored(name) { throw BackendError.worldExists(name) }
    }

    /// Files a new world under `name`, within the cap; the world comes back marked in use.
    private func make(_ name: String, _ open: @escaping @Sendable (Date) async throws -> World) async throws -> World {
        await dropIdle()
        while true {
            // A close under way (an idle drop meanwhile) may leave a kept file: the name is then taken.
            await settle(name)
            try refuseNew(name)
            let now = clock.now()
            let opening = try state.withLock { s -> Task<World, any Error>? in
                if let entry = s.entries[name] {
                    guard entry.ending != nil else { throw BackendError.worldExists(name) }
                    return nil
                }
                guard s.worldCount < limits.maxWorlds || !settings.policy.enforces(.adminWorldLimit) else {
                    throw BackendError.worldLimit(limits.maxWorlds, idleMinutes: limits.idleMinutes)
                }
                let task = openingTask(name) { try await open(now) }
                s.entries[name] = .opening(task)
                return task
            }
            if let opening { return try await entered(opening, at: now) }
        }
    }

    /// The world `name` for an admin call (never made here), marked in use while `body` runs.
    func using<T>(_ name: String, _ body: (World) async throws -> T) async throws -> T {
        let world = try await enter(name, create: false)
        defer { world.end(at: clock.now()) }
        return try await body(world)
    }

    /// `DELETE /_admin/worlds/{name}`, asked from world `caller`: closed once its requests in flight are
    /// answered, its file removed. Asked from inside itself, the world is answered for at once: it closes as
    /// soon as that request, too, is answered, where waiting for it held the request for a minute (issue 45
    /// item 3). Either way it counts toward the cap until it is closed, and its name waits for the close.
    func delete(_ name: String, from caller: String) async throws {
        try WorldName.validate(name)
        // A policy that does not keep it lets the delete through, which then finds no named world "default".
        guard name != WorldName.defaultWorld || !settings.policy.enforces(.adminWorldDefault) else {
            throw BackendError.worldDefault
        }
        enum Step {
            /// Another close or removal of the name first.
            case settle(Task<Void, any Error>)
            /// Under way: nil when not to be waited for.
            case ending(Task<Void, any Error>?)
            case unknown
        }
        while true {
            let step = state.withLock { s -> Step in
                switch s.entries[name] {
                case .closing(let task), .removing(let task):
                    return .settle(task)
                case .open(let world):
                    let task = endingTask(name) {
                        await world.quiesce()
                        await world.close()
                        World.removeFiles(of: world.backend.store.path)
                    }
                    s.entries[name] = .closing(task)
                    return .ending(name == caller ? nil : task)
                case .opening(let opening):
                    // The opening task closes the world, finding its entry taken.
                    let task = endingTask(name) {
                        if let world = try? await opening.value { World.removeFiles(of: world.backend.store.path) }
                    }
                    s.entries[name] = .closing(task)
                    return .ending(task)
                case nil:
                    guard isStored(name) else { return .unknown }
                    let task = endingTask(name) { try self.removeStored(name) }
                    s.entries[name] = .removing(task)
                    return .ending(task)
                }
            }
            switch step {
            case .settle(let task): _ = try? await task.value
            case .ending(let task):
                try await task?.value
                return
            case .unknown: throw BackendError.unknownWorld(name)
            }
        }
    }

    /// A closed world's files, once no other server holds it.
    private func removeStored(_ name: String) throws {
        guard let path = path(of: name) else { return }
        let lock = try DatabaseLock.acquire(databasePath: path)
        World.removeFiles(of: path)
        lock.release()
    }

    /// `GET /_admin/worlds`: the default world, the open ones, and with `--data-dir` those only on disk.
    func list() async throws -> [WorldSummary] {
        await dropIdle()
        let now = clock.now()
        // Marked in use while their databases are read, so a sweep cannot close one under the list.
        let (open, ending) = state.withLock { s -> ([World], Set<String>) in
            let worlds =
                [s.defaultWorld].compactMap { $0 }
                + s.entries.values.compactMap { entry in
                    if case .open(let world) = entry { return world }
                    return nil
                }
            for world in worlds { world.hold() }
            return (worlds, Set(s.entries.filter { $0.value.ending != nil }.keys))
        }
        defer { for world in open { world.release() } }
        var summaries: [WorldSummary] = []
        for world in open {
            let loaded = try await world.backend.scenarios.loadedEpoch()
            summaries.append(
                WorldSummary(
                    name: world.name, open: true, kept: world.kept, scenario: loaded.name, epoch: loaded.epoch,
                    idleSeconds: world.idleSeconds(at: now)))
        }
        // A world being closed or removed is neither open nor (yet) only on disk.
        let shown = Set(summaries.map(\.name)).union(ending)
        for name in storedNames() where !shown.contains(name) {
            summaries.append(WorldSummary(name: name, open: false, kept: true))
        }
        return summaries.sorted { $0.name < $1.name }
    }

    private func storedNames() -> [String] {
        guard let dataDirectory else { return [] }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory)) ?? []
        return files.compactMap { file in
            guard file.hasSuffix(".sqlite") else { return nil }
            let name = String(file.dropLast(".sqlite".count))
            return WorldName.isValid(name) && name != WorldName.defaultWorld ? name : nil
        }
    }

    // MARK: Idle worlds

    /// Closes every named world with no request for `limits.idleMinutes` on the registry's clock, then keeps
    /// `--max-kept-worlds`.
    func dropIdle() async {
        let now = clock.now()
        let closing = state.withLock { s -> [Task<Void, any Error>] in
            var closing: [Task<Void, any Error>] = []
            for (name, entry) in s.entries {
                guard case .open(let world) = entry, world.isIdle(at: now, limit: limits.idleLimit) else { continue }
                let task = endingTask(name) { await world.close() }
                s.entries[name] = .closing(task)
                closing.append(task)
            }
            return closing
        }
        guard !closing.isEmpty else { return }
        for task in closing { _ = try? await task.value }
        await pruneKept()
    }

    /// `--max-kept-worlds`: with `--data-dir`, the files of closed worlds beyond it are removed, the one unused
    /// longest first (`World.close` sets its file's time to its last use), so that worlds nobody comes back
    /// to do not pile up (issue 45 item 4). A world another server holds is left as it is.
    func pruneKept() async {
        guard dataDirectory != nil else { return }
        // Regular files only: nothing else there is a world this server wrote.
        let stored = storedNames().compactMap { name in
            path(of: name).flatMap(PrivateFiles.modificationTime(of:)).map { (used: $0, name: name) }
        }
        let removing = state.withLock { s -> [Task<Void, any Error>] in
            let closed = stored.filter { s.entries[$0.name] == nil }.sorted { $0 < $1 }
            return closed.dropLast(limits.maxKeptWorlds).map { world in
                let task = endingTask(world.name) { try self.removeStored(world.name) }
                s.entries[world.name] = .removing(task)
                return task
            }
        }
        for task in removing { _ = try? await task.value }
    }

    /// Looks for idle worlds every `sweepInterval` until `shutdown()`.
    func startSweeping() {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.sweepInterval)
                await self?.dropIdle()
            }
        }
        sweeper.withLock { $0 = task }
    }

    /// Closes every named world (the default one is the running backend's to close) and lets go of them, then
    /// keeps `--max-kept-worlds` of the files.
    func shutdown() async {
        let task = sweeper.withLock { $0 }
        task?.cancel()
        await task?.value
        let entries = state.withLock { s -> [Entry] in
            // Each world's handler holds the registry: letting go of them all frees the lot.
            defer {
                s.entries = [:]
                s.defaultWorld = nil
            }
            return Array(s.entries.values)
        }
        for entry in entries {
            switch entry {
            case .open(let world): await world.close()
            case .opening(let task): _ = try? await task.value  // closed by the task, finding its entry gone
            case .closing(let task), .removing(let task): _ = try? await task.value
            }
        }
        await pruneKept()
    }
}

/// What an uploaded world file must be before it is put in place.
enum WorldFile {
    static let uploadPath = "/_admin/worlds"
    static let mediaTypes = ["application/vnd.sqlite3", "application/octet-stream"]

    /// `POST /_admin/worlds` with a file, not JSON: the one body the gateway lets through as something else
    /// than JSON, and reads up to `WorldRegistry.maxUploadBytes` instead of 64 KiB.
    static func isUpload(_ request: Request) -> Bool {
        guard request.method == .post, request.uri.path == uploadPath, let type = request.headers[.contentType]
        else { return false }
        let media = type.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces).lowercased()
        return media.map(mediaTypes.contains) ?? false
    }

    /// The first 16 bytes of every SQLite 3 database.
    static let header = Array("SQLite format 3\0".utf8)

    /// Writes the upload 0600 into the private temporary directory, named so a crash leaves nothing kept.
    static func stage(_ file: Data) throws -> String {
        guard file.count >= header.count, Array(file.prefix(header.count)) == header else {
            throw BackendError.worldFileInvalid("it is not a SQLite database.")
        }
        let path = try TemporaryDatabase.makePath()
        try PrivateFiles.prepareDatabase(at: path)
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.write(contentsOf: file)
        } catch {
            World.removeFiles(of: path)
            throw error
        }
        return path
    }

    /// A sound SQLite file made by this server's migrations and nothing else: the migrations it records are the
    /// first ones of this server's chain, and its schema — every table, index, trigger and view, with its SQL — is
    /// what that part of the chain makes of an empty database. Anything more rides along into every world made
    /// from the file and back out in its download (issue 45 item 2): a trigger on `sessions` made every sign-in
    /// pass two-factor and outlived a scenario load; a recursive one held a request's CPU for seconds. A file whose
    /// migrations table claims what its tables are not is refused here too, rather than failing to open.
    static func check(_ path: String) throws {
        let chain = Store.migrator(sealer: nil).migrations
        let (applied, schema): (Set<String>, [String])
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            (applied, schema) = try queue.read { db in
                let problems = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM pragma_quick_check() WHERE quick_check <> 'ok'")
                guard problems == 0 else {
                    throw BackendError.worldFileInvalid("the database is damaged (quick_check).")
                }
                guard try db.tableExists("grdb_migrations"), try db.tableExists("meta") else {
                    throw BackendError.worldFileInvalid("it is not an AccessDeck world (no migrations table).")
                }
                // As text whatever the file stored there: a crafted file is not to stop the server on a type.
                let applied = try String.fetchAll(
                    db, sql: "SELECT ifnull(CAST(identifier AS TEXT), '') FROM grdb_migrations")
                return (Set(applied), try Self.schema(db))
            }
        } catch let error as BackendError {
            throw error
        } catch {
            throw BackendError.worldFileInvalid("SQLite cannot read it.")
        }
        let unknown = applied.subtracting(chain)
        guard unknown.isEmpty else {
            throw BackendError.worldFileInvalid(
                "it was made by a newer AccessDeck (migrations \(unknown.sorted().joined(separator: ", "))).")
        }
        guard !applied.isEmpty, Set(chain.prefix(applied.count)) == applied else {
            throw BackendError.worldFileInvalid("its migrations are not the ones AccessDeck makes, in their order.")
        }
        guard schema == (try schemaMade(upTo: chain[applied.count - 1])) else {
            throw BackendError.worldFileInvalid(
                "its tables, indexes, triggers or views are not the ones its migrations make.")
        }
    }

    /// Every object of `sqlite_master` (type, name, table and SQL, SQLite's own included), each quoted by SQLite
    /// so that no value can pass for another, sorted.
    private static func schema(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT quote(type) || ',' || quote(name) || ',' || quote(tbl_name) || ',' || quote(sql)
                FROM sqlite_master
                """
        ).sorted()
    }

    /// What the migrations up to `last` make of an empty database.
    private static func schemaMade(upTo last: String) throws -> [String] {
        let queue = try DatabaseQueue()
        // Only the rows from before need the key: an empty database gets a throwaway one.
        try Store.migrator(sealer: StoreKey.temporary().outboxSealer).migrate(queue, upTo: last)
        return try queue.read(schema)
    }
}

extension ReferenceBackend {
    /// How many worlds may be open, how long one may stay unused and how many closed ones keep their files;
    /// `serve` sets them.
    public struct WorldLimits: Sendable, Equatable {
        /// At some 1 MB a world (a router, a SQLite pool and its caches; `make bench` measures it), 200 fit
        /// in a few hundred MB.
        public static let defaultMaxWorlds = 200
        public static let defaultIdleMinutes = 60
        /// At some 560 KB a closed world's file, 200 keep about 110 MB on disk.
        public static let defaultMaxKeptWorlds = 200

        /// Named worlds open at once; the default world is not counted.
        public var maxWorlds: Int
        /// A world with no request for this long is closed (its file kept with `--data-dir`, else deleted).
        public var idleMinutes: Int
        /// With `--data-dir`, closed worlds whose files are kept; beyond it the one unused longest is removed.
        public var maxKeptWorlds: Int

        public init(
            maxWorlds: Int = defaultMaxWorlds, idleMinutes: Int = defaultIdleMinutes,
            maxKeptWorlds: Int = defaultMaxKeptWorlds
        ) {
            self.maxWorlds = maxWorlds
            self.idleMinutes = idleMinutes
            self.maxKeptWorlds = maxKeptWorlds
        }

        var idleLimit: TimeInterval { TimeInterval(idleMinutes * 60) }
    }
}
