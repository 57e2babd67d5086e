import AccessBackend
import ArgumentParser
import Foundation
import Logging

/// `accessdeck serve`: the reference backend alone, for QA, schemathesis and the benchmark.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the reference backend without the app.")

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free one.")
    var port = 0

    @Option(help: "SQLite file to keep state in across restarts (default: a temporary database).")
    var db: String?

    @Option(help: "Scenario from fixtures/scenarios to load into an empty database.")
    var scenario = "default"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535.") }
        try ScenarioArgument.validate(scenario)
    }

    func run() async throws {
        var logger = Logger(label: "accessdeck.serve")
        // Keeps Hummingbird's info-level start-up chatter off QA's terminal (stderr).
        logger.logLevel = .warning
        let stop = StopRequest()
        TerminationSignals.install { stop.request() }
        let backend = try await ReferenceBackend.start(
            .init(host: host, port: port, databasePath: db, scenario: scenario, logger: logger))
        stop.onRequest { Task { await backend.shutdown() } }
        print("listening on \(backend.baseURL)")
        // fflush(nil) flushes every stream; naming `stdout` is shared mutable state to Swift 6.
        fflush(nil)
        try await backend.waitUntilStopped()
    }
}
