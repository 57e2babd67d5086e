import AccessBackendTesting
import Testing

/// How `Authorization` is read (`SessionService.accessHash`, rewritten over bytes for issue 34): the scheme in
/// any case (RFC 9110 §11.1), one space after it, spaces and tabs around the token ignored; anything else is
/// no session.
@Suite struct BearerSchemeTests {
    @Test(arguments: ["Bearer ", "bearer ", "BEARER ", "bEaReR ", "Bearer    ", "Bearer \t"])
    func schemeInAnyCaseAndSpacesAroundTheToken(prefix: String) async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.send(
                .GET, "/me/auth-methods", contentType: nil, headers: [("Authorization", prefix + token + " \t ")])
            #expect(reply.status == 200, "\(prefix.debugDescription)")
        }
    }

    @Test(arguments: ["Bearer\t", "Bearer", "Basic ", "Bearer_", "Bearerx ", ""])
    func anythingElseIsNoSession(prefix: String) async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.send(
                .GET, "/me/auth-methods", contentType: nil, headers: [("Authorization", prefix + token)])
            #expect(reply.status == 401, "\(prefix.debugDescription)")
        }
    }
}
