import AccessAPI
import AccessBackend
import AccessBackendTesting
import Foundation
import Testing

/// Issue 25, item 4: a page using DNS rebinding (its own name resolving to 127.0.0.1) reached the
/// loopback admin API with its name in Host, and could read codes and mint sessions. On a loopback bind
/// only loopback names are answered; anywhere, a browser's `Origin` keeps a request off the admin API and
/// off everything that changes state.
@Suite struct HostOriginTests {
    static let token = "test-admin-token-0123456789"

    private func exchange(
        _ backend: TestBackend, _ method: String, _ target: String, host: String?, headers: [(String, String)] = []
    ) async throws -> RawHTTP.Answer {
        try await RawHTTP.exchange(
            port: backend.running.port, RawHTTP.request(method, target, host: host, headers: headers))
    }

    @Test func onLoopbackOnlyLoopbackNamesAreAnswered() async throws {
        try await TestBackend.with { backend in
            let port = backend.running.port
            for host in [
                "attacker.example", "attacker.example:\(port)", "127.0.0.1.attacker.example", "localhost.",
                "localhost.attacker.example", "0.0.0.0:\(port)", "[::2]", "::1", "127.0.0.1:x", "127.0.0.1:",
                "[::1]x", "10.0.0.1",
            ] {
                for (method, path) in [("GET", "/health"), ("GET", "/_admin/outbox"), ("POST", "/_admin/session")] {
                    let answer = try await exchange(backend, method, path, host: host)
                    #expect(answer.status == 403, "\(method) \(path) Host: \(host)")
                    #expect(RawHTTP.error(of: answer)?.error.code.rawValue == "host_not_allowed", "Host: \(host)")
                }
            }
            for host in [
                "localhost", "LOCALHOST", "localhost:\(port)", "127.0.0.1", "127.0.0.1:\(port)", "[::1]",
                "[::1]:\(port)",
            ] {
                #expect(try await exchange(backend, "GET", "/health", host: host).status == 200, "Host: \(host)")
                #expect(
                    try await exchange(backend, "POST", "/_admin/session", host: host).status == 200, "Host: \(host)")
            }
            // Nothing was minted for a foreign name: only the loopback names' seven sessions exist.
            let journal: [JournalEntry] = try await backend.get("/_admin/journal").decode()
            #expect(journal.filter { $0.path == "/_admin/session" && $0.status == 200 }.count == 7)
            #expect(journal.contains { $0.rule == "http.host_not_allowed" })
        }
    }

    /// Issue 45 item 5: `GET http://evil.com/_admin/state` with `Host: 127.0.0.1` was answered. An absolute-form
    /// target's authority is the request's (RFC 9112 §3.2.2) and is checked as Host is; a target that is neither
    /// a path nor absolute-form is refused rather than read as a path.
    @Test func onLoopbackAnAbsoluteFormTargetMustNameThisMachine() async throws {
        try await TestBackend.with { backend in
            let port = backend.running.port
            for target in [
                "http://evil.example/_admin/state", "http://evil.example:\(port)/health", "HTTP://evil.example/health",
                "https://evil.example/_admin/outbox", "http://127.0.0.1.evil.example/health",
                "http://evil.example?/_admin/state",
            ] {
                let answer = try await exchange(backend, "GET", target, host: "127.0.0.1")
                #expect(answer.status == 403, "GET \(target)")
                #expect(RawHTTP.error(of: answer)?.error.code.rawValue == "host_not_allowed", "GET \(target)")
            }
            for target in ["evil.example:/_admin/state", "127.0.0.1:/_admin/state", "*"] {
                let answer = try await exchange(backend, "GET", target, host: "127.0.0.1")
                #expect(answer.status == 400, "GET \(target)")
                #expect(RawHTTP.error(of: answer)?.error.code.rawValue == "bad_request", "GET \(target)")
            }
            // The target's authority wins over Host, both ways.
            for (target, host) in [
                ("http://127.0.0.1:\(port)/health", "127.0.0.1"), ("http://localhost/_admin/state", "evil.example"),
            ] {
                #expect(try await exchange(backend, "GET", target, host: host).status == 200, "GET \(target)")
            }
            // Without a Host header the target does not stand in for it.
            #expect(try await exchange(backend, "GET", "http://127.0.0.1/health", host: nil).status == 400)
        }
    }

    /// `Host: [127.0.0.1]` (brackets are for IPv6 only) was answered as 127.0.0.1. A Host that is not
    /// `host[:port]` is 400, on any bind.
    @Test(arguments: ["127.0.0.1", "0.0.0.0"])
    func aMalformedHostIsRefused(bind: String) async throws {
        let configuration = ReferenceBackend.Configuration(
            host: bind, fixturesDirectory: TestBackend.fixtures, frozenClock: true,
            admin: bind == "0.0.0.0" ? .token(Self.token) : .open)
        try await TestBackend.with(configuration: configuration) { backend in
            var malformed = ["[127.0.0.1]", "[127.0.0.1]:80", "[localhost]"]
            if bind == "0.0.0.0" {
                // On loopback these are already refused with 403 as names it does not answer to.
                malformed += [
                    "::1", "[::1]x", "[::1", "[]", "a b.example", "example.com:x", "example.com:", "exa%6dple.com",
                    "user@example.com", ":80",
                ]
            }
            for host in malformed {
                for target in ["/health", "http://\(host)/health"] {
                    let answer = try await exchange(backend, "GET", target, host: host)
                    #expect(answer.status == 400, "GET \(target) Host: \(host)")
                    #expect(answer.header("Content-Type") == "application/json", "Host: \(host)")
                    #expect(RawHTTP.error(of: answer)?.error.code.rawValue == "bad_request", "Host: \(host)")
                }
            }
            for host in ["127.0.0.1", "[::1]:8080", "localhost", "[0:0:0:0:0:0:0:1]"] {
                #expect(try await exchange(backend, "GET", "/health", host: host).status == 200, "Host: \(host)")
            }
        }
    }

    @Test func aPublicBindAnswersAnyHost() async throws {
        let configuration = ReferenceBackend.Configuration(
            host: "0.0.0.0", fixturesDirectory: TestBackend.fixtures, frozenClock: true, admin: .token(Self.token))
        try await TestBackend.with(configuration: configuration) { backend in
            #expect(try await exchange(backend, "GET", "/health", host: "accessdeck.example").status == 200)
            let minted = try await exchange(
                backend, "POST", "/_admin/session", host: "accessdeck.example", headers: [("X-Admin-Token", Self.token)]
            )
            #expect(minted.status == 200)
        }
    }

    @Test(arguments: ["127.0.0.1", "0.0.0.0"])
    func aBrowsersOriginIsRefusedOnAdminAndChanges(bind: String) async throws {
        let configuration = ReferenceBackend.Configuration(
            host: bind, fixturesDirectory: TestBackend.fixtures, frozenClock: true,
            admin: bind == "0.0.0.0" ? .token(Self.token) : .open)
        try await TestBackend.with(configuration: configuration) { backend in
            let admin = bind == "0.0.0.0" ? [("X-Admin-Token", Self.token)] : []
            let host = "127.0.0.1:\(backend.running.port)"
            let tokens: SessionTokens = try await backend.send(.POST, "/_admin/session", headers: admin).decode()
            let bearer = ("Authorization", "Bearer \(tokens.accessToken)")
            for origin in ["http://attacker.example", "null", "http://127.0.0.1:\(backend.running.port)"] {
                let refused: [(String, String, [(String, String)])] = [
                    ("POST", "/_admin/session", admin), ("GET", "/_admin/outbox", admin),
                    ("GET", "/_admin/journal", admin), ("POST", "/auth/logout", [bearer]),
                    ("POST", "/auth/phone/request-otp", [bearer]), ("DELETE", "/me", [bearer]),
                ]
                for (method, path, headers) in refused {
                    let answer = try await exchange(
                        backend, method, path, host: host, headers: headers + [("Origin", origin)])
                    #expect(answer.status == 403, "\(method) \(path) Origin: \(origin)")
                    #expect(
                        RawHTTP.error(of: answer)?.error.code.rawValue == "origin_not_allowed",
                        "\(method) \(path) Origin: \(origin)")
                }
                // Reading the contract is not a change: a page may still GET (it cannot read the answer
                // across origins anyway).
                let health = try await exchange(backend, "GET", "/health", host: host, headers: [("Origin", origin)])
                #expect(health.status == 200)
                let methods = try await exchange(
                    backend, "GET", "/me/auth-methods", host: host, headers: [bearer, ("Origin", origin)])
                #expect(methods.status == 200)
            }
            // The session survived every refused logout.
            #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 200)
        }
    }
}
