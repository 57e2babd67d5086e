import AccessAPI
import AccessBackend
import AccessBackendTesting
import Foundation
import Testing

/// The admin API hands out sessions and codes: loopback by default, a token or nothing elsewhere, and
/// no body but JSON anywhere, so a web page cannot drive it across origins (issue 11, defect 3).
@Suite struct AdminExposureTests {
    static let token = "test-admin-token-0123456789"

    @Test func aPublicHostNeedsATokenOrNoAdmin() throws {
        #expect(try ReferenceBackend.adminAccess(host: "127.0.0.1", token: nil, disabled: false) == .open)
        #expect(try ReferenceBackend.adminAccess(host: "localhost", token: nil, disabled: false) == .open)
        #expect(try ReferenceBackend.adminAccess(host: "::1", token: nil, disabled: false) == .open)
        for host in ["0.0.0.0", "::", "192.168.1.20", "example.org", "127.0.0.1.example.org"] {
            #expect(throws: ReferenceBackend.ConfigurationError.self, "\(host)") {
                try ReferenceBackend.adminAccess(host: host, token: nil, disabled: false)
            }
        }
        #expect(
            try ReferenceBackend.adminAccess(host: "0.0.0.0", token: Self.token, disabled: false) == .token(Self.token))
        #expect(try ReferenceBackend.adminAccess(host: "0.0.0.0", token: nil, disabled: true) == .disabled)
        #expect(throws: ReferenceBackend.ConfigurationError.self) {
            try ReferenceBackend.adminAccess(host: "0.0.0.0", token: "short", disabled: false)
        }
        #expect(throws: ReferenceBackend.ConfigurationError.self) {
            try ReferenceBackend.adminAccess(host: "0.0.0.0", token: Self.token, disabled: true)
        }
        #expect(ReferenceBackend.describe(.token(Self.token), host: "0.0.0.0").contains("X-Admin-Token"))
        #expect(!ReferenceBackend.describe(.token(Self.token), host: "0.0.0.0").contains(Self.token))
    }

    @Test func startRefusesAnOpenAdminAPIOnAPublicHost() async throws {
        await #expect(throws: ReferenceBackend.ConfigurationError.self) {
            let running = try await ReferenceBackend.start(
                .init(host: "0.0.0.0", fixturesDirectory: TestBackend.fixtures, frozenClock: true))
            await running.shutdown()
        }
    }

    @Test func withATokenAdminRequestsMustCarryIt() async throws {
        let configuration = ReferenceBackend.Configuration(
            host: "0.0.0.0", fixturesDirectory: TestBackend.fixtures, frozenClock: true, admin: .token(Self.token))
        try await TestBackend.with(configuration: configuration) { backend in
            let missing = try await backend.get("/_admin/outbox")
            #expect(missing.status == 401)
            #expect(missing.error?.code == "admin_token_required")
            let wrong = try await backend.send(.POST, "/_admin/session", headers: [("X-Admin-Token", "nope")])
            #expect(wrong.status == 401)
            let right = try await backend.send(.POST, "/_admin/session", headers: [("X-Admin-Token", Self.token)])
            #expect(right.status == 200)
            // The contract itself needs no admin token.
            #expect(try await backend.get("/health").status == 200)
            let tokens: SessionTokens = try right.decode()
            #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 200)
        }
    }

    @Test func noAdminServesNoAdminAPI() async throws {
        let configuration = ReferenceBackend.Configuration(
            host: "0.0.0.0", fixturesDirectory: TestBackend.fixtures, frozenClock: true, admin: .disabled)
        try await TestBackend.with(configuration: configuration) { backend in
            for path in ["/_admin/outbox", "/_admin/scenarios", "/_admin/journal"] {
                let reply = try await backend.get(path)
                #expect(reply.status == 404, "\(path)")
                #expect(reply.error?.code == "not_found", "\(path)")
            }
            #expect(try await backend.send(.POST, "/_admin/session").status == 404)
            #expect(try await backend.get("/health").status == 200)
        }
    }

    @Test func aBodyThatIsNotJSONIs415() async throws {
        try await TestBackend.with { backend in
            let body = Data(#"{"name": "phone-only"}"#.utf8)
            for type in [
                "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data",
            ] {
                let reply = try await backend.send(.POST, "/_admin/scenario", raw: body, contentType: type)
                #expect(reply.status == 415, "\(type)")
                #expect(reply.error?.code == "unsupported_media_type", "\(type)")
            }
            // No type at all, as a Blob body without one is sent.
            #expect(try await backend.send(.POST, "/_admin/scenario", raw: body, contentType: nil).status == 415)
            let journal: [JournalEntry] = try await backend.get("/_admin/journal").decode()
            #expect(journal.last { $0.path == "/_admin/scenario" }?.rule == "http.unsupported_media_type")
            // None of them loaded the scenario.
            let token = try await backend.signIn().accessToken
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.userId == "usr_athlete")

            let request = Data(#"{"phone": "+995511200300", "purpose": "add_phone"}"#.utf8)
            let plain = try await backend.send(
                .POST, "/auth/phone/request-otp", raw: request, token: token, contentType: "text/plain")
            #expect(plain.status == 415)
            let withCharset = try await backend.send(
                .POST, "/auth/phone/request-otp", raw: request, token: token,
                contentType: "application/json; charset=utf-8")
            #expect(withCharset.status == 202)
            // A POST with no body needs no type.
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
        }
    }
}
