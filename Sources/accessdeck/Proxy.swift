import AccessBackend
import AccessProxy
import ArgumentParser
import Foundation

/// `accessdeck proxy`: stands between an app and a backend and forwards their traffic (issue 52).
struct Proxy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Forward an app's traffic to a backend and report each answer that breaks openapi.yaml.",
        discussion: """
            Point the app at the proxy (`accessdeck --backend http://127.0.0.1:N`) and the proxy at the backend. \
            Each contract break (an unknown operation, an unlisted status, a body that does not decode as its \
            schema, a missing required header) is one line on stderr, secrets redacted. It watches the rules of RULES.md \
            in the traffic (docs/command-line.md lists them); GET /_proxy/findings answers what it found so far as \
            JSON, and on Ctrl+C or SIGTERM it prints one summary line and, with --junit, writes a JUnit file. The \
            proxy keeps \
            `serve`'s door: loopback unless --host says otherwise, the backend's /_admin only with this proxy's \
            --admin-token when it has one.
            """)

    @Option(help: ArgumentHelp("The backend's base URL (http:// or https://).", valueName: "url"))
    var upstream: String?

    @Option(
        help: ArgumentHelp(
            "Trust only this PEM certificate (or bundle) for an https:// upstream, not the system's: a test or "
                + "staging backend's own CA.", valueName: "file"))
    var upstreamCA: String?

    @Option(help: "Address to bind. Anything but loopback needs --admin-token or --no-admin.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free one.")
    var port = 0

    @Option(
        help: ArgumentHelp(
            "Admin requests through the proxy must send this in the X-Admin-Token header (at least 16 characters).",
            discussion: "ACCESSDECK_ADMIN_TOKEN in the environment does the same without showing it in `ps`.",
            valueName: "token"))
    var adminToken: String?

    @Flag(help: "Do not forward the backend's admin API (/_admin) at all, nor answer GET /_proxy/findings.")
    var noAdmin = false

    @Option(help: ArgumentHelp("On exit, write the findings as JUnit XML to this file.", valueName: "file"))
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "Keep every exchange, redacted, as JSON lines in DIR/exchanges.jsonl (a recording there is replaced).",
            valueName: "dir"))
    var record: String?

    @Flag(
        help: ArgumentHelp(
            "The upstream serves the reference backend's worlds under /w/NAME: match operations without that prefix "
                + "and keep the rules' state per world."))
    var worldStyle = false

    @Option(
        help: ArgumentHelp(
            "Check a recording again offline and print its findings, instead of forwarding.", valueName: "dir"))
    var replay: String?

    /// The flag wins over the environment; an empty variable counts as unset.
    private var resolvedAdminToken: String? {
        if let adminToken { return adminToken }
        let fromEnvironment = ProcessInfo.processInfo.environment["ACCESSDECK_ADMIN_TOKEN"] ?? ""
        return fromEnvironment.isEmpty ? nil : fromEnvironment
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535.") }
        if replay != nil {
            guard upstream == nil, upstreamCA == nil, record == nil, !worldStyle else {
                throw ValidationError(
                    "--replay checks a recording offline: it takes neither --upstream nor --upstream-ca nor --record "
                        + "nor --world-style (the recording keeps each exchange's world).")
            }
            return
        }
        guard let upstream else { throw ValidationError("--upstream is needed (or --replay DIR).") }
        do {
            let url = try AccessProxy.upstream(upstream)
            if let upstreamCA {
                guard url.scheme?.lowercased() == "https" else {
                    throw ValidationError("--upstream-ca is for an https:// upstream.")
                }
                _ = try AccessProxy.trustRoots(URL(fileURLWithPath: upstreamCA))
            }
        } catch let error as AccessProxy.ConfigurationError {
            throw ValidationError(error.description)
        }
        do {
            _ = try ReferenceBackend.adminAccess(host: host, token: resolvedAdminToken, disabled: noAdmin)
        } catch let error as ReferenceBackend.ConfigurationError {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        if let replay {
            let findings: ProxyFindings
            do {
                findings = try Replay.findings(directory: URL(fileURLWithPath: replay))
            } catch let error as Replay.Failure {
                throw RuntimeError(error.description)
            }
            for found in findings.contractBreaks {
                FileHandle.standardError.write(Data("proxy: \(found.line)\n".utf8))
            }
            try report(findings)
            return
        }
        guard let upstream else { return }
        let stop = StopRequest()
        TerminationSignals.install { stop.request() }
        let admin = try ReferenceBackend.adminAccess(host: host, token: resolvedAdminToken, disabled: noAdmin)
        var configuration = AccessProxy.Configuration(
            upstream: try AccessProxy.upstream(upstream), host: host, port: port, admin: admin)
        configuration.record = record.map { URL(fileURLWithPath: $0) }
        configuration.worldStyle = worldStyle
        configuration.upstreamCA = upstreamCA.map { URL(fileURLWithPath: $0) }
        // The exchange's target is redacted (`ProxyExchange`), so the line shows no code or token.
        configuration.onBreak = { found in FileHandle.standardError.write(Data("proxy: \(found.line)\n".utf8)) }
        let proxy = try await AccessProxy.start(configuration)
        FileHandle.standardError.write(
            Data("accessdeck proxy: forwarding to \(upstream); \(ReferenceBackend.describe(admin, host: host))\n".utf8))
        stop.onRequest { Task { await proxy.shutdown() } }
        print("listening on \(proxy.baseURL)")
        // fflush(nil) flushes every stream; naming `stdout` is shared mutable state to Swift 6.
        fflush(nil)
        try await proxy.waitUntilStopped()
        try report(proxy.log.findings)
    }

    /// On exit, live or replayed: the JUnit file, the summary line, and each broken rule with its exchanges.
    private func report(_ findings: ProxyFindings) throws {
        if let junit {
            do {
                try Data(findings.junit.utf8).write(to: URL(fileURLWithPath: junit))
            } catch {
                throw RuntimeError("could not write \(junit): \(error.localizedDescription)")
            }
        }
        print(findings.summary)
        for verdict in findings.rules where verdict.state == .broken {
            FileHandle.standardError.write(Data("proxy: \(verdict.line)\n".utf8))
        }
    }
}
