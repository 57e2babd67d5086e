import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 51 item 3: the faults WireMock has — sequences built a step at a time, jitter, dribble, malformed bodies
/// and a reset mid-answer — over real HTTP on 127.0.0.1, each named in the journal.
@Suite struct WireMockFaultTests {
    private typealias Fault = Components.Schemas.EndpointFault

    private func set(_ backend: TestBackend, _ settings: FaultSettings) async throws -> Reply {
        try await backend.post("/_admin/faults", settings)
    }

    private func journal(_ backend: TestBackend, path: String) async throws -> [JournalEntry] {
        try await backend.get("/_admin/journal").decode([JournalEntry].self).filter { $0.path == path }
    }

    private func healthStatuses(_ backend: TestBackend, _ count: Int) async throws -> [Int] {
        var statuses: [Int] = []
        for _ in 0..<count { statuses.append(try await backend.get("/health").status) }
        return statuses
    }

    // MARK: sequences

    @Test func anAppendedFaultPlaysAfterTheOneSetBefore() async throws {
        try await TestBackend.with { backend in
            let first = try await set(
                backend, FaultSettings(endpoints: [Fault(path: "/health", kind: .status, status: 429, times: 1)]))
            #expect(first.status == 200)
            let second = try await set(
                backend, FaultSettings(appendEndpoints: [Fault(path: "/health", kind: .status, status: 500, times: 2)]))
            #expect(second.status == 200)
            let now: FaultSettings = try second.decode()
            #expect(now.endpoints?.map(\.status) == [429, 500])
            #expect(now.appendEndpoints == nil)
            #expect(try await healthStatuses(backend, 4) == [429, 500, 500, 200])
        }
    }

    @Test func anAppendKeepsWhatIsLeftOfTheCountsBefore() async throws {
        try await TestBackend.with { backend in
            _ = try await set(backend, FaultSettings(endpoints: [Fault(path: "/health", kind: .unavailable, times: 2)]))
            #expect(try await backend.get("/health").status == 503)
            _ = try await set(
                backend, FaultSettings(appendEndpoints: [Fault(path: "/health", kind: .status, status: 418, times: 1)]))
            #expect(try await healthStatuses(backend, 3) == [503, 418, 200])
        }
    }

    @Test func endpointsThenAppendInOneRequestKeepTheirOrder() async throws {
        try await TestBackend.with { backend in
            _ = try await set(backend, FaultSettings(endpoints: [Fault(path: "/health", kind: .unavailable)]))
            _ = try await set(
                backend,
                FaultSettings(
                    endpoints: [Fault(path: "/health", kind: .status, status: 500, times: 1)],
                    appendEndpoints: [Fault(path: "/health", kind: .status, status: 429, times: 1)]))
            #expect(try await healthStatuses(backend, 3) == [500, 429, 200])
        }
    }

    @Test func moreThanFiftyFaultsInAllIs422AndKeepsTheOnesSet() async throws {
        try await TestBackend.with { backend in
            let fifty = (0..<50).map { Fault(path: "/p\($0)", kind: .unavailable) }
            #expect(try await set(backend, FaultSettings(endpoints: fifty)).status == 200)
            let over = try await set(
                backend, FaultSettings(appendEndpoints: [Fault(path: "/health", kind: .unavailable)]))
            #expect(over.status == 422)
            #expect(over.error?.code == "invalid_fault")
            #expect(try await backend.get("/_admin/faults").decode(FaultSettings.self).endpoints?.count == 50)
            #expect(try await backend.get("/health").status == 200)
        }
    }

    // MARK: jitter

    /// The same seed draws the same waits, each within the range; the journal names each wait.
    @Test func jitterWithASeedWaitsTheSameTimesTwice() async throws {
        try await TestBackend.with { backend in
            let jitter = Fault(path: "/health", kind: .jitter, latencyMs: 1, latencyMaxMs: 30, seed: 7)
            var runs: [[String]] = []
            for _ in 0..<2 {
                #expect(try await set(backend, FaultSettings(endpoints: [jitter])).status == 200)
                #expect(try await healthStatuses(backend, 5) == [200, 200, 200, 200, 200])
                runs.append(try await journal(backend, path: "/health").suffix(5).compactMap(\.fault))
            }
            #expect(runs[0].count == 5)
            #expect(runs[0] == runs[1])
            for name in runs[0] {
                let wait = try #require(name.wholeMatch(of: /jitter (\d+) ms/).flatMap { Int($0.1) }, "\(name)")
                #expect((1...30).contains(wait))
            }
            // Not one wait repeated: the draws move.
            #expect(Set(runs[0]).count > 1)
        }
    }

    // MARK: dribble

    @Test func dribbleSendsTheWholeAnswerInPieces() async throws {
        try await TestBackend.with { backend in
            let port = backend.running.port
            let plain = try await RawHTTP.exchange(port: port, RawHTTP.request("GET", "/health"))
            _ = try await set(
                backend, FaultSettings(endpoints: [Fault(path: "/health", kind: .dribble, dribbleMs: 1600)]))
            let reads = try await RawHTTP.onThread { try Self.reads(port: port, RawHTTP.request("GET", "/health")) }
            let answer = try #require(RawHTTP.parse(reads.reduce(Data(), +), requireWholeBody: true))
            #expect(answer.status == 200)
            #expect(answer.body == plain.body)
            // The head and the body did not come in one read: the pieces are 200 ms apart.
            #expect(reads.count > 2, "\(reads.map(\.count))")
            #expect(try await journal(backend, path: "/health").last?.fault == "dribble")
        }
    }

    /// Every read of one exchange, as they came, until the server closes.
    private static func reads(port: Int, _ request: Data) throws -> [Data] {
        let fd = try RawHTTP.connectedSocket(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        var reads: [Data] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            reads.append(Data(chunk[0..<count]))
        }
        return reads
    }

    // MARK: reset

    @Test func resetDropsTheConnectionHalfwayThroughTheAnswer() async throws {
        try await TestBackend.with { backend in
            let port = backend.running.port
            let plain = try await RawHTTP.exchange(port: port, RawHTTP.request("GET", "/health"))
            _ = try await set(backend, FaultSettings(endpoints: [Fault(path: "/health", kind: .reset)]))
            let received = try await RawHTTP.onThread {
                try Self.reads(port: port, RawHTTP.request("GET", "/health")).reduce(Data(), +)
            }
            let cut = try #require(RawHTTP.parse(received))
            #expect(cut.status == 200)
            #expect(cut.header("Content-Length") == String(plain.body.count))
            #expect(cut.body.count == plain.body.count / 2)
            #expect(plain.body.starts(with: cut.body))
            #expect(RawHTTP.parse(received, requireWholeBody: true) == nil)
            let entry = try #require(try await journal(backend, path: "/health").last)
            #expect(entry.fault == "reset")
            #expect(entry.rule == "fault.reset")
            // The server is still there for the next call.
            _ = try await backend.send(.DELETE, "/_admin/faults")
            #expect(try await backend.get("/health").status == 200)
        }
    }

    // MARK: malformed

    @Test func malformedCutAnswersHalfTheJSON() async throws {
        try await TestBackend.with { backend in
            let plain = try await backend.get("/health")
            _ = try await set(
                backend, FaultSettings(endpoints: [Fault(path: "/health", kind: .malformed, malformed: .cut)]))
            let cut = try await backend.get("/health")
            #expect(cut.status == 200)
            #expect(cut.data == plain.data.prefix(plain.data.count / 2))
            #expect((try? JSONSerialization.jsonObject(with: cut.data)) == nil)
            let entry = try #require(try await journal(backend, path: "/health").last)
            #expect(entry.fault == "malformed_cut")
            #expect(entry.rule == "fault.malformed")
        }
    }

    @Test func malformedWrongTypeChangesEachMembersType() async throws {
        try await TestBackend.with { backend in
            let plain = try #require(
                try JSONSerialization.jsonObject(with: try await backend.get("/health").data) as? [String: Any])
            _ = try await set(
                backend, FaultSettings(endpoints: [Fault(path: "/health", kind: .malformed, malformed: .wrongType)]))
            let reply = try await backend.get("/health")
            #expect(reply.status == 200)
            let mangled = try #require(try JSONSerialization.jsonObject(with: reply.data) as? [String: Any])
            #expect(Set(mangled.keys) == Set(plain.keys))
            for (key, value) in plain {
                #expect((value is String) != (mangled[key] is String), "\(key)")
            }
            #expect(try await journal(backend, path: "/health").last?.fault == "malformed_wrong_type")
        }
    }

    @Test func malformedHTMLAnswersAProxysErrorPageWithoutRunning() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let sentBefore = try await backend.outbox().count
            _ = try await set(
                backend,
                FaultSettings(endpoints: [Fault(path: "/auth/phone/request-otp", kind: .malformed, malformed: .html)]))
            let page = try await backend.requestOTP("+995511123456", .addPhone, token: token)
            #expect(page.status == 502)
            #expect(page.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true)
            #expect(String(decoding: page.data, as: UTF8.self).contains("<html>"))
            // Not run: nothing was sent.
            #expect(try await backend.outbox().count == sentBefore)
            let entry = try #require(try await journal(backend, path: "/auth/phone/request-otp").last)
            #expect(entry.fault == "malformed_html")
            #expect(entry.rule == "fault.malformed")
        }
    }

    // MARK: bounds

    @Test func theNewKindsWithoutTheirValuesAre422() async throws {
        try await TestBackend.with { backend in
            let bad: [Fault] = [
                Fault(path: "/health", kind: .jitter, latencyMs: 10),
                Fault(path: "/health", kind: .jitter, latencyMs: 50, latencyMaxMs: 10),
                Fault(path: "/health", kind: .jitter, latencyMs: 0, latencyMaxMs: 30_001),
                Fault(path: "/health", kind: .latency, latencyMs: 10, seed: 3),
                Fault(path: "/health", kind: .latency, latencyMs: 10, latencyMaxMs: 20),
                Fault(path: "/health", kind: .dribble),
                Fault(path: "/health", kind: .dribble, dribbleMs: 0),
                Fault(path: "/health", kind: .reset, dribbleMs: 100),
                Fault(path: "/health", kind: .malformed),
                Fault(path: "/health", kind: .status, malformed: .html, status: 500),
            ]
            for fault in bad {
                let reply = try await set(backend, FaultSettings(appendEndpoints: [fault]))
                #expect(reply.status == 422, "\(fault)")
                #expect(reply.error?.code == "invalid_fault")
            }
            #expect(try await backend.get("/_admin/faults").decode(FaultSettings.self).endpoints == nil)
        }
    }
}
