import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// Issue 25, item 13: HTTP details the probe found answered wrongly or with the wrong words.
@Suite struct ProtocolDetailTests {
    @Test func aBadPathParameterIsNamedNotCalledABadBody() async throws {
        try await TestBackend.with { backend in
            let get = try await backend.get("/_admin/provider/myspace/accounts")
            #expect(get.status == 400)
            #expect(get.error?.code == "bad_request")
            #expect(get.error?.message == "provider: invalid value.")
            // A POST whose body is fine, with the same bad path parameter.
            let post = try await backend.send(.POST, "/_admin/provider/myspace/token", raw: Data("{}".utf8))
            #expect(post.status == 400)
            #expect(post.error?.message == "provider: invalid value.")
        }
    }

    @Test func aBadQueryParameterIsNamed() async throws {
        try await TestBackend.with { backend in
            for bad in ["abc", "1.5", "", "9999999999999999999999"] {
                let reply = try await backend.get("/_admin/journal?limit=\(bad)")
                #expect(reply.status == 400, "limit=\(bad)")
                #expect(reply.error?.message == "limit: expected a number.", "limit=\(bad)")
            }
            // A required parameter left out cannot be named from the request; junk names are not repeated.
            let missing = try await backend.get("/auth/username-available?%3B%F2=null&k=false")
            #expect(missing.status == 400)
            #expect(missing.error?.message == "A required path or query parameter is missing or empty.")
            let junk = try await backend.get("/_admin/journal?limit=abc&%F2%8E=x&Evil=1.5")
            #expect(junk.error?.message == "limit: expected a number.")
            // The body's own errors keep naming the body's fields.
            let token = try await backend.signIn().accessToken
            let body = try await backend.send(
                .POST, "/auth/phone/request-otp", raw: Data(#"{"phone": 995, "purpose": "add_phone"}"#.utf8),
                token: token)
            #expect(body.error?.message == "phone: expected a string.")
            let broken = try await backend.send(.POST, "/auth/phone/request-otp", raw: Data("{".utf8), token: token)
            #expect(broken.error?.message == "The request body is not valid JSON.")
        }
    }

    @Test(arguments: ["/health", "/_admin/outbox", "example.com:443"])
    func connectIsAnsweredWithAJSONError(target: String) async throws {
        try await TestBackend.with { backend in
            let answer = try await RawHTTP.exchange(
                port: backend.running.port, RawHTTP.request("CONNECT", target, host: "127.0.0.1"))
            #expect((400..<500).contains(answer.status), "\(answer.head)")
            #expect(answer.header("Content-Type") == "application/json")
            #expect(answer.header("Content-Length") == String(answer.body.count))
            let error = try #require(RawHTTP.error(of: answer), "\(answer.head)")
            #expect(!error.error.message.isEmpty)
            if target == "/health" {
                #expect(answer.status == 405)
                #expect(answer.header("Allow") == "GET, HEAD")
            }
            // The server is still there for the next client.
            #expect(try await backend.get("/health").status == 200)
        }
    }

    @Test func headIsAnsweredLikeGetWithoutTheBody() async throws {
        try await TestBackend.with { backend in
            for path in ["/health", "/_admin/outbox", "/_admin/scenarios"] {
                let get = try await RawHTTP.exchange(port: backend.running.port, RawHTTP.request("GET", path))
                let head = try await RawHTTP.exchange(port: backend.running.port, RawHTTP.request("HEAD", path))
                #expect(head.status == 200, "HEAD \(path): \(head.head)")
                #expect(head.body.isEmpty, "HEAD \(path)")
                #expect(head.header("Content-Type") == get.header("Content-Type"), "HEAD \(path)")
                #expect(head.header("Content-Length") == String(get.body.count), "HEAD \(path)")
            }
            // HEAD of a path that answers only POST is still 405, and GET paths list HEAD as allowed.
            let post = try await RawHTTP.exchange(
                port: backend.running.port, RawHTTP.request("HEAD", "/auth/phone/request-otp"))
            #expect(post.status == 405)
            #expect(post.header("Allow") == "POST")
            let put = try await backend.send(.PUT, "/health")
            #expect(put.headers["Allow"].first == "GET, HEAD")
        }
    }

    /// The router takes a segment written out before a parameter: DELETE /me/sessions/revoke-others is not
    /// DELETE /me/sessions/{id} (it is 405), so `Allow` lists POST alone (schemathesis' ST205).
    @Test func allowFollowsTheRoutersChoiceOfAWrittenOutSegmentOverAParameter() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn()
            let delete = try await backend.send(.DELETE, "/me/sessions/revoke-others", token: session.accessToken)
            #expect(delete.status == 405)
            #expect(delete.headers["Allow"].first == "POST")
            let other = try await backend.send(.PUT, "/me/sessions/ses_x", token: session.accessToken)
            #expect(other.headers["Allow"].first == "DELETE")
        }
    }

    @Test func http11WithoutHostIs400() async throws {
        try await TestBackend.with { backend in
            for (method, path) in [("GET", "/health"), ("POST", "/_admin/session")] {
                let answer = try await RawHTTP.exchange(
                    port: backend.running.port, RawHTTP.request(method, path, host: nil))
                #expect(answer.status == 400, "\(method) \(path)")
                #expect(RawHTTP.error(of: answer)?.error.code.rawValue == "bad_request")
                #expect(RawHTTP.error(of: answer)?.error.message.contains("Host") == true)
            }
            let twice = try await RawHTTP.exchange(
                port: backend.running.port,
                RawHTTP.request("GET", "/health", host: "127.0.0.1", headers: [("Host", "localhost")]))
            #expect(twice.status == 400)
        }
    }

    @Test func aDuplicateJSONKeyIs400() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let cases = [
                #"{"name": "phone-only", "name": "default"}"#,
                #"{"name": "phone-only", "\u006eame": "default"}"#,
            ]
            for body in cases {
                let reply = try await backend.send(.POST, "/_admin/scenario", raw: Data(body.utf8))
                #expect(reply.status == 400, "\(body)")
                #expect(reply.error?.message == "name: appears more than once.", "\(body)")
            }
            let nested = try await backend.send(
                .POST, "/auth/phone/request-otp",
                raw: Data(#"{"phone": "+995511200300", "purpose": "add_phone", "purpose": "change_phone"}"#.utf8),
                token: token)
            #expect(nested.status == 400)
            #expect(nested.error?.message == "purpose: appears more than once.")
            // Nothing was loaded: the world is still `default`'s.
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.userId == "usr_athlete")
        }
    }

    /// No request body of the contract takes a `null`, and the generated decoder reads one as absent:
    /// schemathesis's `device.voip_token: null` was a schema-violating request answered 202.
    @Test func aNullMemberOfAPublicBodyIs400ByName() async throws {
        try await TestBackend.with { backend in
            let device =
                #"{"device_name": "Terminal", "system_name": "Linux", "system_version": "6.1", "#
                + #""identifier": "dev_4f1c2a9e", "public_key": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=""#
            let nullToken =
                #"{"channel": "phone", "phone": "+995511123456", "device": \#(device), "voip_token": null}}"#
            let nullPhone = #"{"channel": "phone", "phone": null, "device": \#(device)}}"#
            let cases = [(nullToken, "device.voip_token"), (nullPhone, "phone")]
            for (body, member) in cases {
                let reply = try await backend.send(.POST, "/auth/sign-in/code", raw: Data(body.utf8))
                #expect(reply.status == 400, "\(body)")
                #expect(reply.error?.message == "\(member): must not be null (leave it out instead).", "\(body)")
            }
            // A member the schema does not name may be null: public bodies take any.
            let extra = #"{"channel": "phone", "phone": "+995511123457", "device": \#(device)}, "extra": [null]}"#
            #expect(try await backend.send(.POST, "/auth/sign-in/code", raw: Data(extra.utf8)).status == 202)
            // The same body without the null is taken: the refusal was the null's.
            let taken = #"{"channel": "phone", "phone": "+995511123456", "device": \#(device)}}"#
            #expect(try await backend.send(.POST, "/auth/sign-in/code", raw: Data(taken.utf8)).status == 202)
        }
    }

    @Test func nullsAreFoundAtAnyDepthButNotAsTheWholeBodyOrInsideAString() {
        let twoNulls = JSONBody.firstDuplicateKeyAndNulls(in: Data(#"{"a": [1, null], "b": null}"#.utf8))
        #expect(twoNulls.nulls == ["a[1]", "b"])
        #expect(JSONBody.firstDuplicateKeyAndNulls(in: Data(#"{"a": "null", "b": nullx}"#.utf8)).nulls == [])
        #expect(JSONBody.firstDuplicateKeyAndNulls(in: Data("null".utf8)).nulls == [])
        #expect(JSONBody.firstDuplicateKeyAndNulls(in: Data(#"{"a": {"b": null}}"#.utf8)).nulls == ["a.b"])
    }

    /// Public bodies take members the schema does not name (schemathesis sends them, nulls among them).
    @Test func onlyAMemberTheContractNamesIsRefusedForItsNull() {
        #expect(JSONBody.isContractMember("device.voip_token"))
        #expect(JSONBody.isContractMember("phone"))
        #expect(JSONBody.isContractMember("endpoints[3].code"))
        #expect(!JSONBody.isContractMember("[0]"))
        #expect(!JSONBody.isContractMember("extra"))
        #expect(!JSONBody.isContractMember("device.extra"))
    }

    @Test func duplicateKeysAreFoundAtAnyDepthAndOnlyWithinOneObject() {
        #expect(JSONBody.firstDuplicateKey(in: Data(#"{"a": 1, "b": {"c": 1, "c": 2}}"#.utf8)) == "b.c")
        #expect(JSONBody.firstDuplicateKey(in: Data(#"{"a": [{"x": 1}, {"x": 2, "x": 3}]}"#.utf8)) == "a[1].x")
        #expect(JSONBody.firstDuplicateKey(in: Data(#"{"a": {"x": 1}, "b": {"x": 2}, "x": 3}"#.utf8)) == nil)
        #expect(JSONBody.firstDuplicateKey(in: Data(#"{"a\"b": 1, "a\u0022b": 2}"#.utf8)) == #"a"b"#)
        #expect(JSONBody.firstDuplicateKey(in: Data(#"{"s": "{\"k\": 1, \"k\": 2}"}"#.utf8)) == nil)
        #expect(JSONBody.firstDuplicateKey(in: Data(#"[{"k": 1}, {"k": 2}]"#.utf8)) == nil)
        // Not JSON at all: left to the decoder, which says so.
        #expect(JSONBody.firstDuplicateKey(in: Data(#"{"k": 1, "k""#.utf8)) == nil)
        #expect(JSONBody.firstDuplicateKey(in: Data()) == nil)
    }

    /// A request with neither Content-Length nor Transfer-Encoding has no body and its body is not read
    /// (`JSONBody.isFramed`); the request sent right behind it on the same connection, in the same write, still
    /// gets its own answer, body and all.
    @Test func aRequestWithoutFramingLeavesTheNextOnTheConnectionWhole() async throws {
        try await TestBackend.with { backend in
            let connection = try await RawHTTP.Connection(port: backend.running.port)
            let unframed = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let framed = String(decoding: RawHTTP.request("POST", "/_admin/session"), as: UTF8.self)
            await connection.send(unframed + framed)
            guard case .closed(let received) = await connection.waitForClose() else {
                Issue.record("the connection was not closed after its last request")
                return
            }
            let text = String(decoding: received, as: UTF8.self)
            // Each answer's status, in order (a body may run straight into the next head); the text itself holds
            // a token, so it is not printed.
            let statuses = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(6)) }
            #expect(statuses == ["200 OK", "200 OK"])
            #expect(text.contains(#"{"status":"ok"}"#))
            #expect(text.contains("access_token"))
        }
    }
}
