import AccessAPI
import AccessBackendTesting
import Foundation
import OpenAPIRuntime
import Testing

/// Issue 16: the journal shows each request's id, query, headers and JSON bodies, and never a secret:
/// the raw `GET /_admin/journal` text is searched for the very password, code and tokens used.
@Suite struct JournalDetailTests {
    /// A body the journal keeps as a JSON object.
    private func object(_ body: OpenAPIValueContainer?) -> [String: (any Sendable)?]? {
        body?.value as? [String: (any Sendable)?]
    }

    /// A body the journal keeps as a JSON value, written out again (keys sorted, as the server writes them).
    private func json(_ body: OpenAPIValueContainer?) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return body.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private func journalText(_ backend: TestBackend) async throws -> (String, [JournalEntry]) {
        let reply = try await backend.get("/_admin/journal?limit=500")
        return (String(decoding: reply.data, as: UTF8.self), try reply.decode())
    }

    @Test func aPasswordLoginLeavesNoSecretInTheJournal() async throws {
        try await TestBackend.with { backend in
            let password = "correct-horse-42"
            let signedIn: SignedIn = try await backend.post(
                "/auth/login",
                PasswordLoginBody(email: "jdoe@mail.com", password: password, device: SignInCodeTests.device)
            ).decode()
            let (text, entries) = try await journalText(backend)
            #expect(!text.contains(password))
            #expect(!text.contains(signedIn.session.accessToken))
            #expect(!text.contains(signedIn.session.refreshToken))
            let login = try #require(entries.last { $0.path == "/auth/login" })
            #expect(object(login.requestBody)?["password"] as? String == "[redacted]")
            #expect(object(login.requestBody)?["email"] as? String == "jdoe@mail.com")
            #expect(json(login.responseBody).contains(#""access_token":"[redacted]""#))
        }
    }

    /// Issue 29: a member name written with JSON escapes is the same name to the server's decoder, so it is
    /// the same secret to the journal. `pass\u0077ord` signs in as `password` does.
    @Test func aSecretUnderAnEscapedNameStaysOutOfTheJournal() async throws {
        try await TestBackend.with { backend in
            let password = "correct-horse-42"
            let device = String(
                decoding: try APIJSON.makeContractEncoder().encode(SignInCodeTests.device), as: UTF8.self)
            let body = #"{"email":"jdoe@mail.com","pass\u0077ord":"\#(password)","device":\#(device)}"#
            #expect(try await backend.send(.POST, "/auth/login", raw: Data(body.utf8)).status == 200)
            let reset = #"{"token":"link-token-1","\u006Eew_\u0070assword":"escaped-new-secret-9"}"#
            _ = try await backend.send(.POST, "/auth/password/reset/complete", raw: Data(reset.utf8))
            let (text, entries) = try await journalText(backend)
            #expect(!text.contains(password))
            #expect(!text.contains("escaped-new-secret-9"))
            let login = try #require(entries.last { $0.path == "/auth/login" })
            // The value's member is the decoded name.
            #expect(object(login.requestBody)?["password"] as? String == "[redacted]")
        }
    }

    @Test func anOTPVerifyLeavesNoCodeOrTokenInTheJournal() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP("+995511200300", .addPhone, token: token)
                .decode()
            let code = try await backend.lastCode(to: "+995511200300")
            #expect(try await backend.verify(accepted.requestId, code, token: token).status == 200)
            let (text, entries) = try await journalText(backend)
            #expect(!text.contains(token))
            #expect(!text.contains(#""\#(code)""#))
            let verify = try #require(entries.last { $0.path == "/auth/phone/verify-otp" })
            #expect(verify.requestHeaders?.additionalProperties["authorization"] == "[redacted]")
            #expect(object(verify.requestBody)?["code"] as? String == "[redacted]")
            // The outbox's own answer names the code; its journal entry does not.
            let outbox = try #require(entries.last { $0.path == "/_admin/outbox" })
            #expect(json(outbox.responseBody).contains(#""code":"[redacted]""#))
        }
    }

    /// Issue 25, defect 6: the re-auth token travelled in clear in the journal, and from there into the
    /// saved state of the database.
    @Test func aReauthTokenNeverReachesTheJournalOrTheDatabase() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).sqlite")
            .path
        defer {
            for suffix in ["", "-wal", "-shm", ".key"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let reauthToken = try await TestBackend.with(databasePath: path) { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            #expect(
                try await backend.requestOTP("+995511200300", .changePhone, token: token, reauth: grant.reauthToken)
                    .status == 202)
            let (text, entries) = try await journalText(backend)
            #expect(!text.contains(grant.reauthToken))
            let request = try #require(entries.last { $0.path == "/auth/phone/request-otp" })
            #expect(request.requestHeaders?.additionalProperties["x-reauth-token"] == "[redacted]")
            return grant.reauthToken
        }
        // The journal was saved at shutdown (StateSaver): nothing of the token in any of the files.
        for suffix in ["", "-wal"] {
            let bytes = FileManager.default.contents(atPath: path + suffix) ?? Data()
            #expect(bytes.range(of: Data(reauthToken.utf8)) == nil, "\(suffix)")
        }
    }

    @Test func theRequestIDComesBack() async throws {
        try await TestBackend.with { backend in
            _ = try await backend.send(.GET, "/health", headers: [("X-Request-ID", "req-42")])
            let (_, entries) = try await journalText(backend)
            #expect(entries.last { $0.path == "/health" }?.requestId == "req-42")
        }
    }

    @Test func theQueryIsKeptRedacted() async throws {
        try await TestBackend.with { backend in
            _ = try await backend.get("/health?token=s3cr3t-value&page=2")
            let (text, entries) = try await journalText(backend)
            #expect(entries.last { $0.path == "/health" }?.query == "token=[redacted]&page=2")
            #expect(!text.contains("s3cr3t-value"))
        }
    }

    @Test func answersAreKeptAsJSON() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await backend.get("/me/auth-methods", token: token)
            _ = try await backend.post("/auth/refresh", RefreshBody(refreshToken: "not-a-token"))
            let (_, entries) = try await journalText(backend)
            let methods = try #require(entries.last { $0.path == "/me/auth-methods" })
            #expect(json(methods.responseBody).contains("jdoe@mail.com"))
            #expect(methods.requestBody == nil)
            let refused = try #require(entries.last { $0.path == "/auth/refresh" })
            #expect(refused.status == 401)
            #expect(object(refused.responseBody)?["error"] != nil)
            #expect(json(refused.requestBody) == #"{"refresh_token":"[redacted]"}"#)
            #expect(refused.requestBodyText == nil && refused.responseBodyText == nil)
        }
    }

    /// Issue 29 item 6: the bodies are JSON values in the journal's own JSON, not JSON inside strings; a body
    /// that cannot be one says so under its own member.
    @Test func bodiesAreJSONValuesAndTextOnlyWhenTheyCannotBe() async throws {
        try await TestBackend.with { backend in
            _ = try await backend.post("/auth/refresh", RefreshBody(refreshToken: "not-a-token"))
            #expect(try await backend.send(.POST, "/auth/refresh", raw: Data("{not json".utf8)).status == 400)
            let long = "\"" + String(repeating: "y", count: 5_000) + "\""
            _ = try await backend.send(.POST, "/auth/refresh", raw: Data(long.utf8))
            let reply = try await backend.get("/_admin/journal?limit=500")
            let raw = try #require(try JSONSerialization.jsonObject(with: reply.data) as? [[String: Any]])
            let refreshes = raw.filter { $0["path"] as? String == "/auth/refresh" }
            try #require(refreshes.count == 3)
            let parsed = refreshes[0]
            #expect((parsed["request_body"] as? [String: Any])?["refresh_token"] as? String == "[redacted]")
            #expect((parsed["response_body"] as? [String: Any])?["error"] is [String: Any])
            #expect(parsed["request_body_text"] == nil)
            let broken = refreshes[1]
            #expect(broken["request_body"] == nil)
            #expect(broken["request_body_text"] as? String == "[not JSON]")
            #expect(broken["response_body"] is [String: Any])
            let cut = refreshes[2]
            #expect(cut["request_body"] == nil)
            let text = try #require(cut["request_body_text"] as? String)
            #expect(text.utf8.count == 4 * 1024 && long.hasPrefix(text))
            // The typed client reads the same entries.
            let entries: [JournalEntry] = try reply.decode()
            let typed = entries.filter { $0.path == "/auth/refresh" }
            #expect(typed.map(\.requestBodyText) == [nil, "[not JSON]", text])
            #expect(typed[0].requestBody != nil && typed[1].requestBody == nil && typed[2].requestBody == nil)
        }
    }
}
