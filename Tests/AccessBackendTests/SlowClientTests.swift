import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// Issue 25, item 3: idle connections, half-sent request lines and headers, and bodies short of their
/// Content-Length stayed open for ever; 13.6k of them took the memory from 59 to 343 MB and starved new
/// clients. The limits are injected small so each test takes a second or two of real time; what is
/// checked is the outcome (closed, answered, refused), never how long it took.
@Suite struct SlowClientTests {
    /// Long enough never to act within a test.
    static let never: Duration = .seconds(600)

    private func with<T>(
        _ limits: ReferenceBackend.ConnectionLimits, _ body: (TestBackend) async throws -> T
    ) async throws -> T {
        var configuration = ReferenceBackend.Configuration(fixturesDirectory: TestBackend.fixtures, frozenClock: true)
        configuration.connectionLimits = limits
        return try await TestBackend.with(configuration: configuration, body)
    }

    private func limits(
        header: Duration = never, body: Duration = never, idle: Duration = never, connections: Int = 100,
        write: Duration = never
    ) -> ReferenceBackend.ConnectionLimits {
        .init(
            headerTimeout: header, bodyTimeout: body, idleTimeout: idle, maxConnections: connections,
            writeTimeout: write)
    }

    @Test(arguments: [
        "GET /hea", "GET /health HTTP/1.1\r\n", "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: app",
        "POST /_admin/session HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    ])
    func aHalfSentHeadIsClosed(partial: String) async throws {
        try await with(limits(header: .milliseconds(300))) { backend in
            let slow = try await RawHTTP.Connection(port: backend.running.port)
            await slow.send(partial)
            #expect(await slow.waitForClose() == .closed(received: Data()))
            #expect(try await backend.get("/health").status == 200)
        }
    }

    /// A byte now and then never lets the head be idle: the header timeout runs from its first byte.
    @Test func aTrickledHeadIsClosedBeforeItEnds() async throws {
        try await with(limits(header: .milliseconds(500))) { backend in
            let slow = try await RawHTTP.Connection(port: backend.running.port)
            let head = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: \(String(repeating: "a", count: 600))\r\n\r\n"
            let trickle = Task {
                for character in head {
                    await slow.send(String(character))
                    try await Task.sleep(for: .milliseconds(40))
                }
            }
            // Closed, unanswered: the head (25 s at this pace) never got to the router.
            #expect(await slow.waitForClose() == .closed(received: Data()))
            trickle.cancel()
        }
    }

    @Test(arguments: [false, true])
    func aBodyShortOfItsLengthIsClosed(trickled: Bool) async throws {
        try await with(limits(body: .milliseconds(500))) { backend in
            let slow = try await RawHTTP.Connection(port: backend.running.port)
            await slow.send(
                "POST /_admin/scenario HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n{\"name\": ")
            let trickle = Task {
                guard trickled else { return }
                // 40 s at this pace: longer than `waitForClose` waits.
                for _ in 0..<1000 {
                    await slow.send(" ")
                    try await Task.sleep(for: .milliseconds(40))
                }
            }
            let outcome = await slow.waitForClose()
            trickle.cancel()
            guard case .closed(let received) = outcome else {
                Issue.record("still open")
                return
            }
            // Whatever was said before closing, nothing was loaded.
            #expect(RawHTTP.parse(received).map { (200..<300).contains($0.status) } != true)
            #expect(try await backend.get("/health").status == 200)
        }
    }

    /// The idle limit of the tests that need a request answered before it: a request must reach the server within
    /// it of the connection's accept. One second was missed five times running on a loaded CI machine (the whole
    /// suite runs at once on two cores); a test only ever waits it out once or twice.
    static let idleLongEnoughToBeRead: Duration = .seconds(3)

    /// A kept-alive connection with one request answered on it. The request must reach the server before the
    /// connection's first idle period is up; on a machine loaded enough to miss that (a load average near 100
    /// was seen), the connection is closed unanswered and a new one tries again. A server that cut answers
    /// would fail every try.
    private func answeredConnection(_ backend: TestBackend) async throws -> (RawHTTP.Connection, RawHTTP.Answer) {
        var lastError: (any Error)?
        for _ in 0..<10 {
            let kept = try await RawHTTP.Connection(port: backend.running.port)
            await kept.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            do {
                return (kept, try await kept.readAnswer())
            } catch {
                lastError = error
            }
        }
        throw lastError ?? TestFailure("no answer")
    }

    @Test func anIdleConnectionIsClosedBeforeAndBetweenRequests() async throws {
        try await with(limits(idle: Self.idleLongEnoughToBeRead)) { backend in
            let silent = try await RawHTTP.Connection(port: backend.running.port)
            #expect(await silent.waitForClose() == .closed(received: Data()))

            let (kept, answer) = try await answeredConnection(backend)
            #expect(answer.status == 200)
            #expect(await kept.waitForClose() == .closed(received: Data()))
        }
    }

    /// The timeouts are about the client: a request the server takes its time over is still answered.
    @Test func aSlowAnswerIsNotCut() async throws {
        // Eight seconds of answer against three seconds of each limit.
        let limit = Self.idleLongEnoughToBeRead
        try await with(limits(header: limit, body: limit, idle: limit)) { backend in
            let fault = try await backend.send(
                .POST, "/_admin/faults",
                raw: Data(#"{"endpoints": [{"path": "/health", "kind": "latency", "latency_ms": 8000}]}"#.utf8))
            #expect(fault.status == 200)
            let (_, answer) = try await answeredConnection(backend)
            #expect(answer.status == 200)
        }
    }

    /// Opens a connection that sends part of a request line and stops, once the server counts it.
    private func slowClient(_ backend: TestBackend) async throws -> RawHTTP.Connection {
        let before = backend.running.connectionCounts.open
        let connection = try await RawHTTP.Connection(port: backend.running.port)
        await connection.send("GET /health HTTP/1.1\r\nHost: 127")
        // One at a time, so that the order they were taken in is the order they were opened in.
        _ = try await Probe.eventually { backend.running.connectionCounts.open > before ? true : nil }
        return connection
    }

    @Test func atTheCapAFreshClientPushesOutTheSlowestOne() async throws {
        try await with(limits(connections: 4)) { backend in
            var slow: [RawHTTP.Connection] = []
            for _ in 0..<4 { slow.append(try await slowClient(backend)) }
            #expect(backend.running.connectionCounts.open == 4)
            let fresh = try await RawHTTP.exchange(port: backend.running.port, RawHTTP.request("GET", "/health"))
            #expect(fresh.status == 200)
            // The one that had waited longest made room, and only it.
            #expect(await slow[0].waitForClose() == .closed(received: Data()))
            for index in 1..<4 {
                #expect(await slow[index].waitForClose(within: .milliseconds(200)) == .stillOpen, "slow \(index)")
            }
            // Full again: the next fresh client pushes out the next oldest.
            _ = try await Probe.eventually { backend.running.connectionCounts.open == 3 ? true : nil }
            slow.append(try await slowClient(backend))
            let again = try await RawHTTP.exchange(port: backend.running.port, RawHTTP.request("GET", "/health"))
            #expect(again.status == 200)
            #expect(await slow[1].waitForClose() == .closed(received: Data()))
            #expect(await slow[4].waitForClose(within: .milliseconds(200)) == .stillOpen)
        }
    }

    @Test func atTheCapWithEveryRequestBeingAnsweredANewClientGetsA503() async throws {
        try await with(limits(connections: 2)) { backend in
            let fault = try await backend.send(
                .POST, "/_admin/faults", raw: Data(#"{"endpoints": [{"path": "/health", "kind": "timeout"}]}"#.utf8))
            #expect(fault.status == 200)
            try await backend.client.shutdown()
            _ = try await Probe.eventually { backend.running.connectionCounts.open == 0 ? true : nil }
            var held: [RawHTTP.Connection] = []
            for _ in 0..<2 {
                let connection = try await RawHTTP.Connection(port: backend.running.port)
                await connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                held.append(connection)
            }
            // Both requests are being answered (the fault holds them): nobody can be pushed out.
            _ = try await Probe.eventually { backend.running.connectionCounts.answering == 2 ? true : nil }
            let refused = try await RawHTTP.exchange(port: backend.running.port, RawHTTP.request("GET", "/nothing"))
            #expect(refused.status == 503)
            #expect(refused.header("Content-Type") == "application/json")
            #expect(RawHTTP.error(of: refused)?.error.code.rawValue == "server_busy")
            // Once the held clients give up, there is room again.
            held.removeAll()
            _ = try await Probe.eventually { backend.running.connectionCounts.open == 0 ? true : nil }
            let cleared = try await RawHTTP.exchange(
                port: backend.running.port, RawHTTP.request("DELETE", "/_admin/faults"))
            #expect(cleared.status == 200)
        }
    }

    // MARK: Clients that do not take their answers (issue 45 item 1)

    /// The contract's document: some 150 KB, more than a socket's buffers hold, so an answer nobody reads stays
    /// in the server.
    private static let bigAnswerRequest = "GET /openapi.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Connected with a 2 KB receive buffer, `count` requests for the document sent at once, none of the answers
    /// read; returns once the first answer's bytes have arrived (unread), so the server has taken the requests.
    private func pipeliner(_ backend: TestBackend, requests count: Int = 50) async throws -> RawHTTP.Connection {
        let connection = try await RawHTTP.Connection(port: backend.running.port, receiveBuffer: 2048)
        await connection.send(String(repeating: Self.bigAnswerRequest, count: count))
        guard await connection.waitForBytes() else { throw TestFailure("no answer began") }
        return connection
    }

    /// Before: each of these counted as being answered, for as long as it stayed, and every other client got
    /// a 503 (issue 45: 95 s, twice, at a cap of eight).
    @Test func clientsThatNeverTakeTheirAnswersDoNotLockOthersOut() async throws {
        try await with(limits(connections: 8)) { backend in
            try await backend.client.shutdown()
            _ = try await Probe.eventually { backend.running.connectionCounts.open == 0 ? true : nil }
            var pipeliners: [RawHTTP.Connection] = []
            for _ in 0..<8 { pipeliners.append(try await pipeliner(backend)) }
            // Their answers wait on them, not on the server: none counts as being answered.
            _ = try await Probe.eventually {
                backend.running.connectionCounts == (open: 8, answering: 0) ? true : nil
            }
            let fresh = try await RawHTTP.exchange(port: backend.running.port, RawHTTP.request("GET", "/health"))
            #expect(fresh.status == 200)
            withExtendedLifetime(pipeliners) {}
        }
    }

    /// Before: such a connection stayed open, its answers held, as long as the client kept it.
    @Test func aClientThatTakesNothingIsClosedAfterTheWriteTimeout() async throws {
        try await with(limits(write: .milliseconds(500))) { backend in
            let before = backend.running.connectionCounts.open
            let stuck = try await pipeliner(backend)
            // The server lets go of it without the client reading a byte.
            _ = try await Probe.eventually { backend.running.connectionCounts.open == before ? true : nil }
            guard case .closed(let received) = await stuck.waitForClose() else {
                Issue.record("still open")
                return
            }
            // What was on its way when the server closed: not the fifty answers.
            #expect(received.count < 50 * OpenAPIDocument.yaml.utf8.count)
            #expect(try await backend.get("/health").status == 200)
        }
    }

    /// Requests read and not yet answered are bounded: past them the connection answers those, then closes.
    /// Before: all twenty were answered, and would have been however many came.
    @Test func aConnectionAnswersItsFirstQueuedRequestsThenCloses() async throws {
        try await with(limits()) { backend in
            let eager = try await RawHTTP.Connection(port: backend.running.port)
            await eager.send(String(repeating: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 20))
            guard case .closed(let received) = await eager.waitForClose() else {
                Issue.record("still open")
                return
            }
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.components(separatedBy: "HTTP/1.1 200").count - 1 == ConnectionGuard.maxQueuedRequests)
            // The last one says the connection closes after it.
            #expect(text.components(separatedBy: "Connection: close\r\n").count - 1 == 1)
        }
    }
}
