import AccessBackend
import ArgumentParser
import Foundation

/// `accessdeck serve`: the reference backend alone, for QA, schemathesis and the benchmark.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the reference backend without the app.")

    @Option(help: "Address to bind. Anything but loopback needs --admin-token or --no-admin.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free one.")
    var port = 0

    @Option(
        help: "SQLite file to keep state in across restarts (default: a temporary database); one server per file.")
    var db: String?

    @Option(help: "Scenario from fixtures/scenarios to load into an empty database.")
    var scenario = "default"

    @Option(
        help: ArgumentHelp(
            "Admin requests must send this in the X-Admin-Token header (at least 16 characters).",
            discussion: "ACCESSDECK_ADMIN_TOKEN in the environment does the same without showing it in `ps`.",
            valueName: "token"))
    var adminToken: String?

    @Flag(help: "Do not serve the admin API (/_admin) at all.")
    var noAdmin = false

    @Option(
        help: ArgumentHelp(
            "Connections open at once; at the cap a new one pushes out the one that has waited longest on its "
                + "client.", valueName: "n"))
    var maxConnections = ReferenceBackend.ConnectionLimits.defaultMaxConnections

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may stay open with no request on it.", valueName: "seconds"))
    var idleTimeout = Int(ReferenceBackend.ConnectionLimits.defaultIdleTimeout.components.seconds)

    @Option(
        help: ArgumentHelp(
            "Keep each world (/w/NAME/...) in DIR/NAME.sqlite across restarts (default: temporary files).",
            valueName: "dir"))
    var dataDir: String?

    @Option(help: ArgumentHelp("Named worlds open at once (the default world is not counted).", valueName: "n"))
    var maxWorlds = ReferenceBackend.WorldLimits.defaultMaxWorlds

    @Option(
        help: ArgumentHelp(
            "Minutes a world may go without a request before it is closed (its file kept with --data-dir).",
            valueName: "minutes"))
    var worldIdleMinutes = ReferenceBackend.WorldLimits.defaultIdleMinutes

    @Option(
        help: ArgumentHelp(
            "With --data-dir, closed worlds whose files are kept; beyond it the one unused longest is removed.",
            valueName: "n"))
    var maxKeptWorlds = ReferenceBackend.WorldLimits.defaultMaxKeptWorlds

    /// The flag wins over the environment; an empty variable counts as unset.
    private var resolvedAdminToken: String? {
        if let adminToken { return adminToken }
        let fromEnvironment = ProcessInfo.processInfo.environment["ACCESSDECK_ADMIN_TOKEN"] ?? ""
        return fromEnvironment.isEmpty ? nil : fromEnvironment
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535.") }
        guard (1...100_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be 1...100000.")
        }
        guard (1...3_600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be 1...3600.") }
        guard (1...10_000).contains(maxWorlds) else { throw ValidationError("--max-worlds must be 1...10000.") }
        guard (1...10_080).contains(worldIdleMinutes) else {
            throw ValidationError("--world-idle-minutes must be 1...10080 (a week).")
        }
        guard (0...100_000).contains(maxKeptWorlds) else {
            throw ValidationError("--max-kept-worlds must be 0...100000.")
        }
        try ScenarioArgument.validate(scenario)
        do {
            _ = try ReferenceBackend.adminAccess(host: host, token: resolvedAdminToken, disabled: noAdmin)
        } catch let error as ReferenceBackend.ConfigurationError {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let logger = ServerLogHandler.serverLogger()
        let stop = StopRequest()
        TerminationSignals.install { stop.request() }
        let admin = try ReferenceBackend.adminAccess(host: host, token: resolvedAdminToken, disabled: noAdmin)
        var configuration = ReferenceBackend.Configuration(
            host: host, port: port, databasePath: db, scenario: scenario, logger: logger, admin: admin)
        configuration.connectionLimits.maxConnections = maxConnections
        configuration.connectionLimits.idleTimeout = .seconds(idleTimeout)
        configuration.dataDirectory = dataDir
        configuration.worldLimits = .init(
            maxWorlds: maxWorlds, idleMinutes: worldIdleMinutes, maxKeptWorlds: maxKeptWorlds)
        let backend = try await ReferenceBackend.start(configuration)
        FileHandle.standardError.write(Data("accessdeck serve: \(ReferenceBackend.describe(admin, host: host))\n".utf8))
        stop.onRequest { Task { await backend.shutdown() } }
        print("listening on \(backend.baseURL)")
        // fflush(nil) flushes every stream; naming `stdout` is shared mutable state to Swift 6.
        fflush(nil)
        try await backend.waitUntilStopped()
    }
}
