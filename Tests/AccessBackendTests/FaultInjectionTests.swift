import AccessAPI
import AccessBackendTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 16: faults a QA console switches on — the port refusing connections, and per-endpoint faults —
/// over real HTTP; each is named in the journal.
@Suite struct FaultInjectionTests {
    private func setFaults(_ backend: TestBackend, _ settings: FaultSettings) async throws -> Reply {
        try await backend.post("/_admin/faults", settings)
    }

    private func endpoint(
        _ path: String, _ kind: Components.Schemas.EndpointFault.KindPayload, latencyMs: Int? = nil, status: Int? = nil
    ) -> Components.Schemas.EndpointFault {
        Components.Schemas.EndpointFault(path: path, kind: kind, latencyMs: latencyMs, status: status)
    }

    private func lastEntry(_ backend: TestBackend, path: String) async throws -> JournalEntry? {
        try await backend.get("/_admin/journal").decode([JournalEntry].self).last { $0.path == path }
    }

    private func health(port: Int) async throws -> Int {
        try await RawHTTP.exchange(
            port: port, Data("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        )
        .status
    }

    // MARK: refused

    @Test func refusedClosesThePortUntilTheRefusalIsEnded() async throws {
        try await TestBackend.with { backend in
            let reply = try await setFaults(backend, FaultSettings(offline: "refused", offlineSeconds: 600))
            #expect(reply.status == 200)
            let settings: FaultSettings = try reply.decode()
            #expect(settings.offline == "refused")
            #expect(settings.refusedUntil != nil)
            #expect(await Probe.connect(port: backend.running.port) == ECONNREFUSED)
            #expect(backend.running.isRefusing)

            await backend.running.endRefusal()
            #expect(try await health(port: backend.running.port) == 200)
            let after: FaultSettings = try await backend.get("/_admin/faults").decode()
            #expect(after.offline == nil && after.refusedUntil == nil)
        }
    }

    @Test func refusalEndsByItselfAndTheSamePortAnswersAgain() async throws {
        try await TestBackend.with { backend in
            let port = backend.running.port
            #expect(try await setFaults(backend, FaultSettings(offline: "refused", offlineSeconds: 1)).status == 200)
            let status = try await Probe.eventually { try? await health(port: port) }
            #expect(status == 200)
            let after: FaultSettings = try await backend.get("/_admin/faults").decode()
            #expect(after.offline == nil)
        }
    }

    // MARK: endpoint faults

    @Test func unavailableAnswers503OnItsPathOnly() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await setFaults(backend, FaultSettings(endpoints: [endpoint("/me/auth-methods", .unavailable)]))
            let reply = try await backend.get("/me/auth-methods?x=1", token: token)
            #expect(reply.status == 503)
            #expect(reply.error?.code == "offline")
            #expect(try await backend.get("/health").status == 200)
            let entry = try #require(try await lastEntry(backend, path: "/me/auth-methods"))
            #expect(entry.fault == "unavailable")
            #expect(entry.rule == "fault.unavailable")
        }
    }

    @Test func starHitsEveryPathButTheAdminAPI() async throws {
        try await TestBackend.with { backend in
            _ = try await setFaults(backend, FaultSettings(endpoints: [endpoint("*", .status, status: 502)]))
            #expect(try await backend.get("/health").status == 502)
            #expect(try await backend.post("/auth/refresh", RefreshBody(refreshToken: "x")).status == 502)
            #expect(try await backend.get("/_admin/clock").status == 200)
        }
    }

    @Test func theFirstMatchingFaultApplies() async throws {
        try await TestBackend.with { backend in
            _ = try await setFaults(
                backend,
                FaultSettings(endpoints: [endpoint("/health", .status, status: 429), endpoint("*", .unavailable)]))
            let limited = try await backend.get("/health")
            #expect(limited.status == 429)
            #expect(limited.headers["Retry-After"].first == "30")
            #expect(try await backend.get("/me/auth-methods").status == 503)
        }
    }

    @Test func offlineClosesTheConnectionUnanswered() async throws {
        try await TestBackend.with { backend in
            _ = try await setFaults(backend, FaultSettings(endpoints: [endpoint("/health", .offline)]))
            await #expect(throws: (any Error).self) { try await backend.get("/health") }
            let entry = try #require(try await lastEntry(backend, path: "/health"))
            #expect(entry.fault == "offline" && entry.rule == "fault.offline")
        }
    }

    @Test func latencyWaitsThenAnswersNormally() async throws {
        try await TestBackend.with { backend in
            _ = try await setFaults(backend, FaultSettings(endpoints: [endpoint("/health", .latency, latencyMs: 50)]))
            #expect(try await backend.get("/health").status == 200)
            let entry = try #require(try await lastEntry(backend, path: "/health"))
            #expect(entry.fault == "latency")
            #expect(entry.rule == "ok")
            #expect(entry.ms >= 50)
        }
    }

    @Test func timeoutHoldsTheRequestUntilTheClientGivesUp() async throws {
        try await TestBackend.with { backend in
            _ = try await setFaults(backend, FaultSettings(endpoints: [endpoint("/health", .timeout)]))
            let request = HTTPClientRequest(url: backend.running.baseURL + "/health")
            await #expect(throws: (any Error).self) {
                _ = try await backend.client.execute(request, timeout: .seconds(1))
            }
            // Recorded once the server saw the client hang up — long before its own 60 s limit.
            let entry = try await Probe.eventually(within: .seconds(30)) {
                try await lastEntry(backend, path: "/health")
            }
            #expect(entry.fault == "timeout" && entry.rule == "fault.timeout")
        }
    }

    @Test func commitThenFailCommitsTheWriteButNeverAnswers() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await setFaults(
                backend, FaultSettings(endpoints: [endpoint("/auth/phone/request-otp", .commitThenFail)]))
            await #expect(throws: (any Error).self) {
                try await backend.requestOTP("+995511200300", .addPhone, token: token)
            }
            // The client saw a broken connection, yet the code was sent.
            #expect(try await backend.outbox().contains { $0.to == "+995511200300" && $0.kind == "otp" })
            let entry = try #require(try await lastEntry(backend, path: "/auth/phone/request-otp"))
            #expect(entry.fault == "commit_then_fail" && entry.rule == "fault.commit_then_fail")
            #expect(entry.status == 202)
        }
    }

    // MARK: settings

    @Test func endpointFaultsAreValidated() async throws {
        try await TestBackend.with { backend in
            for bad in [
                endpoint("/health", .latency), endpoint("/health", .status), endpoint("health", .unavailable),
                endpoint("/health", .status, status: 302),
            ] {
                let reply = try await setFaults(backend, FaultSettings(endpoints: [bad]))
                #expect(reply.status == 422)
                #expect(reply.error?.code == "invalid_fault")
            }
            #expect(try await setFaults(backend, FaultSettings(offline: "refused", offlineSeconds: 0)).status == 422)
            #expect(try await backend.get("/health").status == 200)
        }
    }

    @Test func aPostReplacesOnlyWhatItSends() async throws {
        try await TestBackend.with { backend in
            _ = try await setFaults(backend, FaultSettings(endpoints: [endpoint("/health", .unavailable)]))
            let kept: FaultSettings = try await setFaults(backend, FaultSettings(latencyMs: 0)).decode()
            #expect(kept.endpoints?.count == 1)
            #expect(try await backend.get("/health").status == 503)
            let cleared: FaultSettings = try await setFaults(backend, FaultSettings(endpoints: [])).decode()
            #expect(cleared.endpoints?.isEmpty ?? true)
            #expect(try await backend.get("/health").status == 200)
        }
    }

    @Test func deleteClearsEveryFault() async throws {
        try await TestBackend.with { backend in
            _ = try await setFaults(
                backend,
                FaultSettings(
                    offline: "503", latencyMs: 10, statuses: [PathFault(path: "/health", status: 500)],
                    endpoints: [endpoint("*", .unavailable)]))
            let cleared: FaultSettings = try await backend.send(.DELETE, "/_admin/faults").decode()
            #expect(cleared == FaultSettings())
            #expect(try await backend.get("/health").status == 200)
        }
    }
}
