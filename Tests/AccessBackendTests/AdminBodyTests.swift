import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// Issue 29 item 6: the admin API as a tester's own client meets it — the contract served, unknown members
/// and values refused with what is valid, and JSON written the same way every time. Over real HTTP.
@Suite struct AdminBodyTests {
    private func post(_ backend: TestBackend, _ path: String, _ json: String) async throws -> Reply {
        try await backend.send(.POST, path, raw: Data(json.utf8))
    }

    @Test func theServerServesTheContractItWasBuiltWith() async throws {
        try await TestBackend.with { backend in
            let reply = try await backend.get("/openapi.yaml")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"].first == "application/yaml")
            let source = TestBackend.fixtures.deletingLastPathComponent().appendingPathComponent(
                "Sources/AccessAPI/openapi.yaml")
            #expect(String(decoding: reply.data, as: UTF8.self) == (try String(contentsOf: source, encoding: .utf8)))
        }
    }

    /// `{"latencyMs": 2000}` was 200 `{}`, and `{"typo": 1}` was taken as nothing.
    @Test func anUnknownMemberIs422NamingTheMembers() async throws {
        try await TestBackend.with { backend in
            let reply = try await post(backend, "/_admin/faults", #"{"latencyMs": 2000}"#)
            #expect(reply.status == 422)
            #expect(reply.error?.code == "invalid_field")
            #expect(
                reply.error?.message
                    == "latencyMs: not a member of this body; it takes append_endpoints, endpoints, latency_ms, offline, offline_seconds, refused_until, statuses."
            )
            #expect(try await backend.get("/_admin/faults").decode(FaultSettings.self) == FaultSettings())
        }
    }

    @Test func anUnknownMemberOfAnItemNamesTheItemsMembers() async throws {
        try await TestBackend.with { backend in
            let reply = try await post(
                backend, "/_admin/faults", #"{"endpoints": [{"path": "/health", "kind": "unavailable", "count": 2}]}"#)
            #expect(reply.status == 422)
            #expect(
                reply.error?.message.hasPrefix(
                    "endpoints[0].count: not a member of endpoints[]; it takes body, body_status, code, dribble_ms, kind"
                )
                    == true)
        }
    }

    @Test func everyAdminBodyRefusesAnUnknownMember() async throws {
        try await TestBackend.with { backend in
            let bodies = [
                "/_admin/scenario": #"{"name": "default", "typo": 1}"#, "/_admin/clock": #"{"typo": 1}"#,
                "/_admin/clock/advance": #"{"typo": 1}"#, "/_admin/provider/apple/token": #"{"typo": 1}"#,
            ]
            for (path, body) in bodies {
                let reply = try await post(backend, path, body)
                #expect(reply.status == 422, "\(path)")
                #expect(reply.error?.message.hasPrefix("typo: not a member of this body") == true, "\(path)")
            }
        }
    }

    /// The contract's maxLength counts code points (JSON Schema), as schemathesis does: 200 letters each with a
    /// combining accent are 200 characters on screen but 400 code points.
    @Test func aSubjectIsMeasuredInCodePoints() async throws {
        try await TestBackend.with { backend in
            let subject = String(repeating: "e\u{301}", count: 200)
            let reply = try await backend.post("/_admin/provider/apple/token", ProviderTokenBody(subject: subject))
            #expect(reply.status == 422)
            let fits = String(repeating: "e\u{301}", count: 127)
            #expect(
                try await backend.post("/_admin/provider/apple/token", ProviderTokenBody(subject: fits)).status == 200)
        }
    }

    /// Any RFC 3339 offset and year reads (schemathesis sent `0424-06-26T10:43:04+23:13`, and got "not valid JSON").
    @Test func aTimeWithAnyOffsetIsReadAndJudged() async throws {
        try await TestBackend.with { backend in
            let reply = try await post(backend, "/_admin/clock", #"{"at": "0424-06-26T10:43:04+23:13"}"#)
            #expect(reply.status == 422)
            #expect(reply.error?.code == "clock_backwards")
        }
    }

    @Test func aKindOutsideTheEnumNamesTheKinds() async throws {
        try await TestBackend.with { backend in
            let reply = try await post(backend, "/_admin/faults", #"{"endpoints": [{"path": "/x", "kind": "nope"}]}"#)
            #expect(reply.status == 400)
            #expect(
                reply.error?.message
                    == "endpoints[0].kind: expected one of unavailable, offline, latency, timeout, commit_then_fail, status, body, jitter, dribble, malformed, reset."
            )
        }
    }

    /// `"\/auth\/phone"` before, and keys in an order that changed from run to run.
    @Test func jsonIsWrittenWithPlainSlashesAndSortedKeys() async throws {
        try await TestBackend.with { backend in
            let reply = try await post(
                backend, "/_admin/faults",
                #"{"endpoints": [{"path": "/auth/phone", "kind": "latency", "latency_ms": 5}]}"#)
            #expect(
                String(decoding: reply.data, as: UTF8.self)
                    == #"{"endpoints":[{"kind":"latency","latency_ms":5,"path":"/auth/phone"}]}"#)
        }
    }
}
