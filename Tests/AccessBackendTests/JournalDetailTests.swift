import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Issue 16: the journal shows each request's id, query, headers and JSON bodies, and never a secret:
/// the raw `GET /_admin/journal` text is searched for the very password, code and tokens used.
@Suite struct JournalDetailTests {
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
            #expect(login.requestBody?.contains(#""password":"[redacted]""#) == true)
            #expect(login.requestBody?.contains("jdoe@mail.com") == true)
            #expect(login.responseBody?.contains(#""access_token":"[redacted]""#) == true)
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
            #expect(login.requestBody?.contains(#""pass\u0077ord":"[redacted]""#) == true)
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
            #expect(verify.requestBody?.contains(#""code":"[redacted]""#) == true)
            // The outbox's own answer names the code; its journal entry does not.
            let outbox = try #require(entries.last { $0.path == "/_admin/outbox" })
            #expect(outbox.responseBody?.contains(#""code":"[redacted]""#) == true)
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
            #expect(methods.responseBody?.contains("jdoe@mail.com") == true)
            #expect(methods.requestBody == nil)
            let refused = try #require(entries.last { $0.path == "/auth/refresh" })
            #expect(refused.status == 401)
            #expect(refused.responseBody?.contains(#""error""#) == true)
            #expect(refused.requestBody == #"{"refresh_token":"[redacted]"}"#)
        }
    }
}
