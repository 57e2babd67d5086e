import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Issue 29 item 1: faults as a tester scripts them (WireMock) — "fail N times, then succeed", a sequence
/// on one path, and a status with an error code and message of the tester's choosing. Over real HTTP.
@Suite struct FaultSequenceTests {
    private typealias Fault = Components.Schemas.EndpointFault

    private func setEndpoints(_ backend: TestBackend, _ faults: [Fault]) async throws -> Reply {
        try await backend.post("/_admin/faults", FaultSettings(endpoints: faults))
    }

    @Test func failTwiceThenSucceed() async throws {
        try await TestBackend.with { backend in
            #expect(
                try await setEndpoints(backend, [Fault(path: "/health", kind: .unavailable, times: 2)]).status == 200)
            #expect(try await backend.get("/health").status == 503)
            let after: FaultSettings = try await backend.get("/_admin/faults").decode()
            #expect(after.endpoints?.first?.remaining == 1)
            #expect(try await backend.get("/health").status == 503)
            #expect(try await backend.get("/health").status == 200)
            #expect(try await backend.get("/_admin/faults").decode(FaultSettings.self).endpoints == [])
        }
    }

    @Test func aFaultWithoutTimesStaysUntilCleared() async throws {
        try await TestBackend.with { backend in
            _ = try await setEndpoints(backend, [Fault(path: "/health", kind: .unavailable)])
            for _ in 0..<3 { #expect(try await backend.get("/health").status == 503) }
        }
    }

    @Test func faultsOnOnePathPlayInOrder() async throws {
        try await TestBackend.with { backend in
            _ = try await setEndpoints(
                backend,
                [
                    Fault(path: "/health", kind: .status, status: 500, times: 1),
                    Fault(path: "/health", kind: .status, status: 429, times: 1),
                ])
            #expect(try await backend.get("/health").status == 500)
            let limited = try await backend.get("/health")
            #expect(limited.status == 429)
            #expect(limited.error?.retryAfter != nil)
            #expect(try await backend.get("/health").status == 200)
        }
    }

    /// A code the contract does not list is what a tester injects to see how a client copes with one.
    @Test func aStatusCarriesTheTestersCodeAndMessage() async throws {
        try await TestBackend.with { backend in
            _ = try await setEndpoints(
                backend,
                [
                    Fault(
                        path: "/health", kind: .status, status: 409, code: "account_suspended",
                        message: "Suspended for review.")
                ])
            let reply = try await backend.get("/health")
            #expect(reply.status == 409)
            let body = try JSONSerialization.jsonObject(with: reply.data) as? [String: [String: String]]
            #expect(body?["error"] == ["code": "account_suspended", "message": "Suspended for review."])
        }
    }

    @Test func aStatusWithoutACodeSaysFaultInjected() async throws {
        try await TestBackend.with { backend in
            _ = try await setEndpoints(backend, [Fault(path: "/health", kind: .status, status: 500)])
            #expect(try await backend.get("/health").error?.code == "fault_injected")
        }
    }

    @Test func badSequencesAndCodesAre422() async throws {
        try await TestBackend.with { backend in
            let bad: [Fault] = [
                Fault(path: "/health", kind: .unavailable, times: 0),
                Fault(path: "/health", kind: .unavailable, times: 1001),
                Fault(path: "/health", kind: .status, status: 409, code: "Not-A-Code"),
                Fault(path: "/health", kind: .latency, latencyMs: 10, code: "slow"),
                Fault(path: "/health", kind: .status, status: 409, message: String(repeating: "x", count: 201)),
                Fault(path: "/health", kind: .unavailable, times: 2, remaining: 1),
            ]
            for fault in bad {
                let reply = try await setEndpoints(backend, [fault])
                #expect(reply.status == 422, "\(fault)")
                #expect(reply.error?.code == "invalid_fault")
            }
            #expect(try await backend.get("/health").status == 200)
        }
    }
}
