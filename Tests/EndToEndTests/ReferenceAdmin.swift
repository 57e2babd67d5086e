import ChildProcess
import Foundation

/// The admin API of the app's embedded reference backend, on a port the test chose, so a test
/// moves the backend's clock or switches on a fault instead of waiting for a rule.
struct ReferenceAdmin {
    let port: Int
    /// `/w/NAME` for a world's admin API; empty for the default world's.
    var world = ""

    /// A port nothing listens on right now (the kernel's pick, released at once).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Tmux.Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Tmux.Failure(description: "bind() to a free port failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    init() throws { port = try Self.freePort() }

    /// The app's arguments that put its embedded backend on this port.
    var arguments: [String] { ["--port", String(port)] }

    /// `POST /_admin/…` with a JSON body; returns the reply body. Fails on a non-2xx status.
    @discardableResult
    func post(_ path: String, _ json: String) throws -> String {
        try curl(["-X", "POST", "-H", "Content-Type: application/json", "--data", json, url(path)])
    }

    func get(_ path: String) throws -> String { try curl([url(path)]) }

    /// Moves the backend's clock; the app's clock follows it.
    func advanceClock(seconds: Int) throws { try post("/clock/advance", #"{"seconds": \#(seconds)}"#) }

    /// Another session of the scenario's user (another "device"); its access token.
    func newSession() throws -> String {
        let reply = try post("/session", "{}")
        let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
        guard let token = object?["access_token"] as? String else {
            throw Tmux.Failure(description: "no access_token in \(reply.count) bytes")
        }
        return token
    }

    /// The HTTP status of `GET path` (outside /_admin) with `token` as the bearer.
    func status(ofGet path: String, bearer token: String) throws -> Int {
        let code = try curl(
            [
                "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                "http://127.0.0.1:\(port)\(path)",
            ], failOnHTTPError: false)
        return Int(code) ?? 0
    }

    /// The HTTP status of `POST path` (outside /_admin) with a JSON body and no session.
    func status(ofPost path: String, _ json: String) throws -> Int {
        let code = try curl(
            [
                "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Content-Type: application/json",
                "--data", json, "http://127.0.0.1:\(port)\(path)",
            ], failOnHTTPError: false)
        return Int(code) ?? 0
    }

    private func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(world)/_admin\(path)" }

    /// The same server's admin API for world `name` (`/w/NAME/_admin`).
    func inWorld(_ name: String) -> ReferenceAdmin {
        var admin = self
        admin.world = "/w/\(name)"
        return admin
    }

    private func curl(_ arguments: [String], failOnHTTPError: Bool = true) throws -> String {
        let outcome = try ChildProcess.run(
            "/usr/bin/env",
            ["curl", "-sS", "--max-time", "10"] + (failOnHTTPError ? ["--fail-with-body"] : []) + arguments
        )
        let text = String(decoding: outcome.output + outcome.errors, as: UTF8.self)
        guard outcome.status == 0 else {
            throw Tmux.Failure(description: "curl \(arguments.joined(separator: " ")): \(text)")
        }
        return text
    }
}
