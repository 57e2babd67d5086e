import AccessAPI
import Foundation
import Testing

/// `POST /me/auth-methods/disconnect`: re-auth required; the only method is a hard block (409).
@Suite struct DisconnectTests {
    @Test func disconnectNeedsReauthThenUnlinks() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let refused = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .google), token: token)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "reauth_required")
            let grant = try await backend.passwordGrant(token: token)
            let reply = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .google), token: token,
                reauth: grant.reauthToken)
            #expect(reply.status == 200)
            let methods: AuthMethods = try reply.decode()
            #expect(!methods.googleLinked && methods.appleLinked)
            let again = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .google), token: token,
                reauth: grant.reauthToken)
            #expect(again.status == 422)
            #expect(again.error?.code == "not_linked")
        }
    }

    @Test func onlyMethodIsAHardBlock() async throws {
        try await TestBackend.with(scenario: "apple-only") { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token)
            #expect(reply.status == 409)
            #expect(reply.error?.code == "last_method")
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.appleLinked)
        }
    }
}
