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
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var defaultWorld: World?
    }

    let settings: WorldSettings
    let limits: Limits
    /// `--data-dir`: one `NAME.sqlite` per world, kept across restarts; nil: temporary files.
    let dataDirectory: String?
    /// The registry's own time, for idleness: not a world's clock, which its tester moves at will.
    let clock: BackendClock
    private let state = Mutex(State())
    private let sweeper = Mutex<Task<Void, Never>?>(nil)

    init(settings: WorldSettings, limits: Limits, dataDirectory: String?, clock: BackendClock) throws {
        self.settings = settings
        self.limits = limits
        self.dataDirectory = dataDirectory
        self.clock = clock
        if let dataDirectory {
            guard mkdir(dataDirectory, PrivateFiles.directoryMode) == 0 || errno == EEXIST else {
                throw ReferenceBackend.ConfigurationError(
                    "cannot create --data-dir \(dataDirectory): \(String(cString: strerror(errno)))")
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

    // MARK: Requests

    /// Runs `body` with the world `name` (made from `--scenario` on its first request), counted as in use.
    func serve<T>(_ name: String, _ body: (World) async throws -> T) async throws -> T {
        let world = try await enter(name, create: true)
        defer { world.end(at: clock.now()) }
        return try await body(world)
    }

    private enum Lookup {
        case ready(World)
        case wait(Task<World, any Error>)
        case absent
    }

    /// The world, marked in use: open, being opened, opened from `--data-dir`, or (`create`) made.
    private func enter(_ name: String, create: Bool) async throws -> World {
        try WorldName.validate(name)
        let now = clock.now()
        switch lookUp(name, at: now) {
        case .ready(let world): return world
        case .wait(let task): return try await entered(task, at: now)
        case .absent: break
        }
        guard create || isStored(name) else { throw BackendError.unknownWorld(name) }
        await dropIdle()
        let task = try state.withLock { s -> Task<World, any Error> in
            if let entry = s.entries[name] {
                switch entry {
                case .open(let world): return Task { world }
                case .opening(let task): return task
                }
            }
            guard s.entries.count < limits.maxWorlds else {
                throw BackendError.worldLimit(limits.maxWorlds, idleMinutes: limits.idleMinutes)
            }
            let task = openingTask(name) {
                try await World.open(
                    name: name, path: self.path(of: name), scenario: self.settings.scenario, settings: self.settings,
                    registry: self, now: now)
            }
            s.entries[name] = .opening(task)
            return task
        }
        return try await entered(task, at: now)
    }

    private func lookUp(_ name: String, at now: Date) -> Lookup {
        state.withLock { s in
            if name == WorldName.defaultWorld, let world = s.defaultWorld {
                world.begin(at: now)
                return .ready(world)
            }
            switch s.entries[name] {
            case .open(let world):
                world.begin(at: now)
                return .ready(world)
            case .opening(let task): return .wait(task)
            case nil: return .absent
            }
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

    // MARK: Admin

    /// `POST /_admin/worlds {name, scenario}`.
    func create(_ name: String, scenario: String?) async throws -> World {
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
        let now = clock.now()
        let task = try state.withLock { s -> Task<World, any Error> in
            guard s.entries[name] == nil else { throw BackendError.worldExists(name) }
            guard s.entries.count < limits.maxWorlds || !settings.policy.enforces(.adminWorldLimit) else {
                throw BackendError.worldLimit(limits.maxWorlds, idleMinutes: limits.idleMinutes)
            }
            let task = openingTask(name) { try await open(now) }
            s.entries[name] = .opening(task)
            return task
        }
        return try await entered(task, at: now)
    }

    /// The world `name` for an admin call (never made here), marked in use while `body` runs.
    func using<T>(_ name: String, _ body: (World) async throws -> T) async throws -> T {
        let world = try await enter(name, create: false)
        defer { world.end(at: clock.now()) }
        return try await body(world)
    }

    /// `DELETE /_admin/worlds/{name}`: closed once its requests in flight are answered, its file removed.
    func delete(_ name: String) async throws {
        try WorldName.validate(name)
        // A policy that does not keep it lets the delete through, which then finds no named world "default".
        guard name != WorldName.defaultWorld || !settings.policy.enforces(.adminWorldDefault) else {
            throw BackendError.worldDefault
        }
        let entry = state.withLock { s -> Entry? in
            defer { s.entries[name] = nil }
            return s.entries[name]
        }
        switch entry {
        case .open(let world):
            await world.quiesce()
            await world.close()
            World.removeFiles(of: world.backend.store.path)
        case .opening(let task):
            // The opening task closes it, finding its entry gone.
            if let world = try? await task.value { World.removeFiles(of: world.backend.store.path) }
        case nil:
            guard let path = path(of: name), FileManager.default.fileExists(atPath: path) else {
                throw BackendError.unknownWorld(name)
            }
            // Another server on the same --data-dir may have it open.
            let lock = try DatabaseLock.acquire(databasePath: path)
            World.removeFiles(of: path)
            lock.release()
        }
    }

    /// `GET /_admin/worlds`: the default world, the open ones, and with `--data-dir` those only on disk.
    func list() async throws -> [WorldSummary] {
        await dropIdle()
        let now = clock.now()
        // Marked in use while their databases are read, so a sweep cannot close one under the list.
        let open = state.withLock { s -> [World] in
            let worlds =
                [s.defaultWorld].compactMap { $0 }
                + s.entries.values.compactMap { entry in
                    if case .open(let world) = entry { return world }
                    return nil
                }
            for world in worlds { world.hold() }
            return worlds
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
        let openNames = Set(summaries.map(\.name))
        for name in storedNames() where !openNames.contains(name) {
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

    /// Closes every named world with no request for `limits.idleMinutes` on the registry's clock.
    func dropIdle() async {
        let now = clock.now()
        let idle = state.withLock { s -> [World] in
            var dropped: [World] = []
            for (name, entry) in s.entries {
                if case .open(let world) = entry, world.isIdle(at: now, limit: limits.idleLimit) {
                    s.entries[name] = nil
                    dropped.append(world)
                }
            }
            return dropped
        }
        for world in idle { await world.close() }
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

    /// Closes every named world (the default one is the running backend's to close) and lets go of them.
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
            }
        }
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

    /// A sound SQLite file whose migrations this server knows (so `Store.open` can bring it up to date).
    static func check(_ path: String) throws {
        let known = Set(Store.migrator(sealer: nil).migrations)
        let applied: [String]
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            applied = try queue.read { db -> [String] in
                let problems = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM pragma_quick_check() WHERE quick_check <> 'ok'")
                guard problems == 0 else {
                    throw BackendError.worldFileInvalid("the database is damaged (quick_check).")
                }
                guard try db.tableExists("grdb_migrations"), try db.tableExists("meta") else {
                    throw BackendError.worldFileInvalid("it is not an AccessDeck world (no migrations table).")
                }
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
        } catch let error as BackendError {
            throw error
        } catch {
            throw BackendError.worldFileInvalid("SQLite cannot read it.")
        }
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw BackendError.worldFileInvalid(
                "it was made by a newer AccessDeck (migrations \(unknown.sorted().joined(separator: ", "))).")
        }
    }
}

extension ReferenceBackend {
    /// How many worlds may be open and how long one may stay unused; `serve` sets both.
    public struct WorldLimits: Sendable, Equatable {
        /// At some 1 MB a world (a router, a SQLite pool and its caches; `make bench` measures it), 200 fit
        /// in a few hundred MB.
        public static let defaultMaxWorlds = 200
        public static let defaultIdleMinutes = 60

        /// Named worlds open at once; the default world is not counted.
        public var maxWorlds: Int
        /// A world with no request for this long is closed (its file kept with `--data-dir`, else deleted).
        public var idleMinutes: Int

        public init(maxWorlds: Int = defaultMaxWorlds, idleMinutes: Int = defaultIdleMinutes) {
            self.maxWorlds = maxWorlds
            self.idleMinutes = idleMinutes
        }

        var idleLimit: TimeInterval { TimeInterval(idleMinutes * 60) }
    }
}
