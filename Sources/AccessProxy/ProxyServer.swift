import AccessBackend
import AsyncHTTPClient
import Foundation
import Logging
import NIOSSL

/// `accessdeck proxy` (issue 52): a server between an app and a backend that forwards every request as sent and
/// every answer as received. It listens as `serve` does (`FrontDoor`, `FrontGate`): on loopback unless told
/// otherwise, and anywhere else only with an admin token or with the admin APIs off.
public enum AccessProxy {
    public struct Configuration: Sendable {
        /// The backend's base URL, `http://` or `https://`, with or without a path prefix.
        public var upstream: URL
        public var host: String
        /// 0: any free port.
        public var port: Int
        public var admin: ReferenceBackend.AdminAccess
        public var connectionLimits = ReferenceBackend.ConnectionLimits()
        public var logger: Logger
        /// Told of each contract break as its exchange ends (`accessdeck proxy` prints it on stderr).
        public var onBreak: @Sendable (ContractBreak) -> Void = { _ in }
        /// `--record DIR`: each finished exchange is appended to DIR/exchanges.jsonl (`RecordedExchange`).
        public var record: URL?
        /// `--world-style`: the upstream serves worlds under `/w/NAME` (`WorldStyle`).
        public var worldStyle = false
        /// `--upstream-ca FILE`: a PEM certificate or bundle, the only roots an https upstream is checked against
        /// (a test or staging backend's own CA); nil: the system's.
        public var upstreamCA: URL?

        public init(
            upstream: URL, host: String = "127.0.0.1", port: Int = 0, admin: ReferenceBackend.AdminAccess = .open,
            logger: Logger = Logger(label: "accessdeck.proxy") { _ in SwiftLogNoOpLogHandler() }
        ) {
            self.upstream = upstream
            self.host = host
            self.port = port
            self.admin = admin
            self.logger = logger
        }
    }

    public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The upstream as the proxy forwards to it: an http or https URL with a host, no query or fragment; a
    /// trailing "/" is dropped, since every request's path starts with one.
    public static func upstream(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil, components.user == nil,
            let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text)
        else {
            throw ConfigurationError(
                description: "--upstream must be an http:// or https:// URL with a host and no query, e.g. "
                    + "https://staging.example.com")
        }
        return url
    }

    /// The certificates of a PEM file (`--upstream-ca`); at least one, or a `ConfigurationError` that names the file.
    public static func trustRoots(_ file: URL) throws -> [NIOSSLCertificate] {
        let certificates = try? NIOSSLCertificate.fromPEMFile(file.path)
        guard let certificates, !certificates.isEmpty else {
            throw ConfigurationError(
                description: "--upstream-ca must be a readable PEM file of one or more certificates: \(file.path)")
        }
        return certificates
    }

    /// Returns once the proxy accepts connections.
    public static func start(_ configuration: Configuration) async throws -> RunningProxy {
        if configuration.admin == .open, !ReferenceBackend.isLoopback(configuration.host) {
            _ = try ReferenceBackend.adminAccess(host: configuration.host, token: nil, disabled: false)
        }
        let trustRoots = try configuration.upstreamCA.map(trustRoots(_:))
        let recorder = try configuration.record.map(Recorder.init(directory:))
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: Forwarder.clientConfiguration(trustRoots: trustRoots))
        let log = ProxyLog(onBreak: configuration.onBreak, recorder: recorder)
        let forwarder = Forwarder(
            upstream: configuration.upstream, client: client,
            gate: FrontGate(host: configuration.host, admin: configuration.admin), log: log,
            worldStyle: configuration.worldStyle)
        let door: FrontDoor<Forwarder>
        do {
            door = try await FrontDoor(
                host: configuration.host, port: configuration.port, responder: forwarder,
                limits: configuration.connectionLimits, logger: configuration.logger, name: "proxy")
        } catch {
            try? await client.shutdown()
            recorder?.close()
            throw error
        }
        return RunningProxy(host: configuration.host, door: door, client: client, log: log)
    }
}

/// A started proxy; call `shutdown()` to stop it.
public final class RunningProxy: Sendable {
    public let host: String
    private let door: FrontDoor<Forwarder>
    private let client: HTTPClient
    /// What the proxy has seen so far.
    public let log: ProxyLog

    init(host: String, door: FrontDoor<Forwarder>, client: HTTPClient, log: ProxyLog) {
        self.host = host
        self.door = door
        self.client = client
        self.log = log
    }

    public var port: Int { door.port }

    public var baseURL: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)"
    }

    /// Stops listening, lets the exchanges in flight finish, then closes the upstream connections.
    public func shutdown() async {
        await door.shutdown()
        try? await client.shutdown()
        log.closeRecording()
    }

    /// Returns when the proxy has stopped (after `shutdown()`), or throws when serving failed.
    public func waitUntilStopped() async throws {
        try await door.waitUntilStopped()
    }
}
