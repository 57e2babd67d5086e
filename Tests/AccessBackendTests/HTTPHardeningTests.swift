import AccessAPI
import AccessBackendTesting
import Foundation
import NIOHTTP1
import Testing

/// Every 4xx is JSON, even for requests NIO's parser refuses; known paths answer other methods with 405
/// and `Allow`; admin parameters are validated (issue 11, defect 6).
@Suite struct HTTPHardeningTests {
    private func expectJSONError(_ answer: RawHTTP.Answer, status: Int, code: String) throws {
        #expect(answer.status == status)
        #expect(answer.header("Content-Type") == "application/json")
        let body = try APIJSON.makeContractDecoder().decode(APIErrorBody.self, from: answer.body)
        #expect(body.error.code.rawValue == code)
        #expect(!body.error.message.isEmpty)
    }

    @Test func oversizedHeadersGetAJSON400() async throws {
        try await TestBackend.with { backend in
            let big = String(repeating: "a", count: 100 * 1024)
            let request = Data("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(big)\r\n\r\n".utf8)
            let answer = try await RawHTTP.exchange(port: backend.running.port, request)
            try expectJSONError(answer, status: 400, code: "headers_too_large")
            #expect(try await backend.get("/health").status == 200)
        }
    }

    @Test func tenThousandQueryParametersGetAJSON400() async throws {
        try await TestBackend.with { backend in
            let query = (0..<10_000).map { "p\($0)=\($0)" }.joined(separator: "&")
            let request = Data("GET /_admin/journal?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            let answer = try await RawHTTP.exchange(port: backend.running.port, request)
            try expectJSONError(answer, status: 400, code: "headers_too_large")
        }
    }

    /// NIO reports the two header orders as different errors (only one of them by name).
    @Test(arguments: [("Content-Length", "bad_request"), ("Transfer-Encoding", "bad_framing")])
    func contentLengthWithChunkedEncodingGetsAJSON400(first: String, code: String) async throws {
        try await TestBackend.with { backend in
            let body = #"{"name":"default"}"#
            let length = "Content-Length: \(body.utf8.count)\r\n"
            let chunked = "Transfer-Encoding: chunked\r\n"
            let request = Data(
                ("POST /_admin/scenario HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + (first == "Content-Length" ? length + chunked : chunked + length) + "\r\n"
                    + "\(String(body.utf8.count, radix: 16))\r\n\(body)\r\n0\r\n\r\n").utf8)
            let answer = try await RawHTTP.exchange(port: backend.running.port, request)
            try expectJSONError(answer, status: 400, code: code)
        }
    }

    /// Issue 45 item 8: a 200 MiB body was read to its end before the 413. Now the answer comes from the declared
    /// length before any of the body is read, or once chunks pass the limit, and the connection closes: this client
    /// sends a few bytes of the body and waits, and it still gets its answer.
    @Test(arguments: ["Content-Length: \(200 * 1024 * 1024)", "Transfer-Encoding: chunked"])
    func anOversizedBodyIsRefusedBeforeItIsReadAndTheConnectionCloses(framing: String) async throws {
        try await TestBackend.with { backend in
            let client = try await RawHTTP.Connection(port: backend.running.port)
            // The declared length alone is over the limit; the one chunk sent is, and its end never comes.
            let chunk = "{\"phone\": \"" + String(repeating: "1", count: 70 * 1024)
            let body =
                framing.hasPrefix("Content-Length")
                ? "{\"phone\": \"1" : "\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n"
            await client.send(
                "POST /auth/sign-in/code HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "\(framing)\r\n\r\n\(body)")
            guard case .closed(let received) = await client.waitForClose(), let answer = RawHTTP.parse(received) else {
                Issue.record("no answer, or the connection stayed open")
                return
            }
            try expectJSONError(answer, status: 413, code: "payload_too_large")
            // Said, so that a client does not send its next request into the closing connection.
            #expect(answer.header("Connection") == "close")
            #expect(try await backend.get("/health").status == 200)
        }
    }

    @Test func otherMethodsOnKnownPathsAre405WithAllow() async throws {
        try await TestBackend.with { backend in
            let cases: [(String, String)] = [
                ("/health", "GET, HEAD"), ("/me/auth-methods", "GET, HEAD"), ("/auth/phone/request-otp", "POST"),
                ("/_admin/provider/apple/token", "POST"), ("/_admin/faults", "DELETE, GET, HEAD, POST"),
            ]
            for (path, allow) in cases {
                for method in [HTTPMethod.PUT, .DELETE, .PATCH, .OPTIONS, .TRACE] where !allow.contains(method.rawValue)
                {
                    let reply = try await backend.send(method, path)
                    #expect(reply.status == 405, "\(method) \(path)")
                    #expect(reply.headers["Allow"].first == allow, "\(method) \(path)")
                    #expect(reply.error?.code == "method_not_allowed", "\(method) \(path)")
                }
            }
            // A path nobody serves is still a 404, whatever the method.
            #expect(try await backend.send(.PUT, "/no/such/thing").status == 404)
        }
    }

    @Test func journalLimitIsValidated() async throws {
        try await TestBackend.with { backend in
            for bad in ["-1", "501"] {
                let reply = try await backend.get("/_admin/journal?limit=\(bad)")
                #expect(reply.status == 422, "limit=\(bad)")
                #expect(reply.error?.code == "invalid_parameter", "limit=\(bad)")
            }
            // Not a number at all: the contract's type check refuses it before the journal, a JSON 400.
            for bad in ["abc", "1.5", ""] {
                let reply = try await backend.get("/_admin/journal?limit=\(bad)")
                #expect(reply.status == 400, "limit=\(bad)")
                #expect(reply.error?.code == "bad_request", "limit=\(bad)")
            }
            _ = try await backend.get("/health")
            #expect(try await backend.get("/_admin/journal?limit=0").decode([JournalEntry].self).isEmpty)
            #expect(try await backend.get("/_admin/journal?limit=1").decode([JournalEntry].self).count == 1)
            #expect(try await backend.get("/_admin/journal?limit=500").status == 200)
            #expect(try await backend.get("/_admin/journal").status == 200)
        }
    }

    @Test func adminBodiesRefuseExplicitNulls() async throws {
        try await TestBackend.with { backend in
            let null = try await backend.send(
                .POST, "/_admin/provider/apple/token", raw: Data(#"{"subject": null}"#.utf8))
            #expect(null.status == 422)
            #expect(null.error?.code == "invalid_field")
            #expect(null.error?.message.contains("subject") == true)
            let empty = try await backend.send(
                .POST, "/_admin/provider/apple/token", raw: Data(#"{"subject": ""}"#.utf8))
            #expect(empty.status == 422)
            #expect(try await backend.send(.POST, "/_admin/provider/apple/token", raw: Data("{}".utf8)).status == 200)
            let clock = try await backend.send(
                .POST, "/_admin/clock/advance", raw: Data(#"{"seconds": null, "to": "next_deadline"}"#.utf8))
            #expect(clock.status == 422)
        }
    }
}
