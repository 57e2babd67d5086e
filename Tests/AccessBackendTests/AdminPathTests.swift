import AccessAPI
import AccessBackend
import AccessBackendTesting
import Foundation
import Testing

/// Issue 25, item 1: the admin guard looked at the path as written (`hasPrefix("/_admin")`) while the
/// router skips empty segments, so `POST //_admin/session` minted a session past `--no-admin` and past
/// `--admin-token`. Every admin route, every spelling, both modes, over raw sockets so that no client
/// library tidies the path first.
@Suite struct AdminPathTests {
    static let token = "test-admin-token-0123456789"

    enum Mode: String, CaseIterable, Sendable {
        case token, disabled

        var access: ReferenceBackend.AdminAccess {
            switch self {
            case .token: return .token(AdminPathTests.token)
            case .disabled: return .disabled
            }
        }
    }

    /// Spellings of `path` that the router reads as `path` itself (or that a proxy or another router
    /// could): none may be routed.
    static func nonCanonical(_ path: String) -> [String] {
        let rest = String(path.dropFirst("/_admin".count))  // "/session", "/provider/apple/token", …
        return [
            "/" + path, "//" + path, "/_admin/" + rest, path + "/", path + "//", "/." + path, "/_admin/." + rest,
            "/x/.." + path, "/_admin/x/.." + rest, "/%2F_admin" + rest, "/%2f_admin" + rest,
            "/_admin%2F" + rest.dropFirst(),
            "/%5Fadmin" + rest, "/%5fadmin" + rest, "/%2e" + path, "/%2E%2E" + path, "/_%61dmin" + rest,
            "/\\_admin" + rest, "\\_admin" + rest, "http://127.0.0.1/" + path, "_admin" + rest,
        ]
    }

    /// Canonical but in another case: the router is case-sensitive and finds nothing, and the gateway
    /// still treats them as admin paths (a case-insensitive router would route them).
    static func otherCase(_ path: String) -> [String] {
        let rest = String(path.dropFirst("/_admin".count))
        return ["/_ADMIN" + rest, "/_Admin" + rest, "/_aDmIn" + rest]
    }

    private func adminRoutes(_ backend: TestBackend) -> [(method: String, path: String)] {
        backend.running.routes.compactMap { description in
            let parts = description.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1].hasPrefix("/_admin") else { return nil }
            return (parts[0], parts[1].replacingOccurrences(of: "{provider}", with: "apple"))
        }
    }

    private func send(
        _ backend: TestBackend, _ method: String, _ target: String, token: String? = nil
    ) async throws -> RawHTTP.Answer {
        let headers = token.map { [("X-Admin-Token", $0)] } ?? []
        let request = RawHTTP.request(method, target, host: "127.0.0.1:\(backend.running.port)", headers: headers)
        return try await RawHTTP.exchange(port: backend.running.port, request)
    }

    @Test(arguments: Mode.allCases)
    func noSpellingOfAnAdminPathGetsPastTheGuard(mode: Mode) async throws {
        let configuration = ReferenceBackend.Configuration(
            host: "0.0.0.0", fixturesDirectory: TestBackend.fixtures, frozenClock: true, admin: mode.access)
        try await TestBackend.with(configuration: configuration) { backend in
            let routes = adminRoutes(backend)
            // Every admin operation of the contract: a route that went missing would make this test vacuous.
            #expect(routes.count >= 13, "\(routes)")
            for (method, path) in routes {
                // The canonical path itself: 401 without the token, 404 with the API off.
                let plain = try await send(backend, method, path)
                #expect(plain.status == (mode == .token ? 401 : 404), "\(method) \(path)")

                for target in Self.nonCanonical(path) {
                    let answer = try await send(backend, method, target)
                    #expect(answer.status == 400, "\(mode) \(method) \(target): \(answer.head)")
                    #expect(RawHTTP.error(of: answer)?.error.code.rawValue == "bad_request", "\(method) \(target)")
                    // With the right token, a crooked path is still refused, never routed.
                    if mode == .token {
                        let withToken = try await send(backend, method, target, token: Self.token)
                        #expect(withToken.status == 400, "\(method) \(target) with the token")
                    }
                }
                for target in Self.otherCase(path) {
                    let answer = try await send(backend, method, target)
                    let expected = mode == .token ? "admin_token_required" : "not_found"
                    #expect(answer.status == (mode == .token ? 401 : 404), "\(mode) \(method) \(target)")
                    #expect(RawHTTP.error(of: answer)?.error.code.rawValue == expected, "\(method) \(target)")
                }
            }
            if mode == .token {
                // The guard is the only thing standing in the way: with the token the same route answers.
                let minted = try await send(backend, "POST", "/_admin/session", token: Self.token)
                #expect(minted.status == 200)
            }
        }
    }

    @Test func crookedPathsAreRefusedOnLoopbackToo() async throws {
        try await TestBackend.with { backend in
            for target in Self.nonCanonical("/_admin/session") + ["//health", "/health/", "/me//auth-methods"] {
                let answer = try await send(backend, "POST", target)
                #expect(answer.status == 400, "\(target)")
            }
            // Nothing was minted: the journal shows only refusals for every crooked path.
            let journal: [JournalEntry] = try await backend.get("/_admin/journal").decode()
            #expect(journal.filter { $0.status == 200 && $0.path != "/_admin/journal" }.isEmpty)
            #expect(journal.contains { $0.rule == "http.path_not_canonical" })
        }
    }
}
