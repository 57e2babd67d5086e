import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `POST /auth/logout` ends this device's session (its family of rotations) and no other.
@Suite struct LogoutTests {
    func logout(_ backend: TestBackend, token: String?, body: String? = nil) async throws -> Reply {
        try await backend.send(.POST, "/auth/logout", raw: body.map { Data($0.utf8) }, token: token)
    }

    @Test func logoutEndsThisSessionAndLeavesTheOthers() async throws {
        try await TestBackend.with { backend in
            let here = try await backend.signIn()
            let elsewhere = try await backend.signIn()
            let reply = try await logout(backend, token: here.accessToken)
            #expect(reply.status == 204)
            #expect(reply.data.isEmpty)
            let journal = try await backend.get("/_admin/journal").decode([JournalEntry].self)
            #expect(journal.last { $0.path == "/auth/logout" }?.rule == "session.logout")
            #expect(try await backend.get("/me/auth-methods", token: here.accessToken).status == 401)
            let refresh = try await backend.post("/auth/refresh", RefreshBody(refreshToken: here.refreshToken))
            #expect(refresh.status == 401)
            #expect(refresh.error?.code == "refresh_invalid")
            #expect(try await backend.get("/me/auth-methods", token: elsewhere.accessToken).status == 200)
        }
    }

    @Test func anEmptyJSONBodyIsAccepted() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            #expect(try await logout(backend, token: tokens.accessToken, body: "{}").status == 204)
            #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 401)
        }
    }

    @Test func logoutAfterRotationEndsTheRotatedSession() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            let rotated: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: first.refreshToken)
            ).decode()
            #expect(try await logout(backend, token: rotated.accessToken).status == 204)
            #expect(
                try await backend.post("/auth/refresh", RefreshBody(refreshToken: rotated.refreshToken)).status == 401)
        }
    }

    @Test func withoutASessionLogoutIs401() async throws {
        try await TestBackend.with { backend in
            let missing = try await logout(backend, token: nil)
            #expect(missing.status == 401)
            #expect(missing.error?.code == "unauthorized")
            #expect(try await logout(backend, token: "at_forged").status == 401)
            let tokens = try await backend.signIn()
            #expect(try await logout(backend, token: tokens.accessToken).status == 204)
            #expect(try await logout(backend, token: tokens.accessToken).status == 401)
        }
    }
}
