import AccessAPI
import AccessBackendTesting
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// `POST /me/auth-methods/disconnect`: re-auth required; the only method is a hard block (409); the
/// provider's grant and tokens are revoked (seed 001: "token pair with Apple/Google is revoked").
@Suite struct DisconnectTests {
    /// The user's grants for `provider`: (subject, revoked).
    static func grants(
        _ backend: TestBackend, _ userId: String, _ provider: SocialProvider
    ) async throws
        -> [(String, Bool)]
    {
        try await backend.running.store.pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT subject, revoked_at FROM provider_grants WHERE user_id = ? AND provider = ? ORDER BY id",
                arguments: [userId, provider.rawValue]
            ).map { ($0["subject"], ($0["revoked_at"] as Double?) != nil) }
        }
    }

    @Test func disconnectRevokesTheGrantAndTheTokensMintedBefore() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await Self.grants(backend, "usr_athlete", .google).map(\.1) == [false])
            let before: ProviderToken = try await backend.post("/_admin/provider/google/token", ProviderTokenBody())
                .decode()
            let grant = try await backend.passwordGrant(token: token)
            let reply = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .google), token: token,
                reauth: grant.reauthToken)
            #expect(reply.status == 200)
            #expect(try await Self.grants(backend, "usr_athlete", .google).map(\.1) == [true])
            #expect(try await Self.grants(backend, "usr_athlete", .apple).map(\.1) == [false])
            // The id token minted for the linked account before the disconnect is dead: it cannot link again.
            let relink = try await backend.post(
                "/me/auth-methods/connect", ConnectBody(provider: .google, idToken: before.idToken), token: token)
            #expect(relink.status == 401)
            #expect(relink.error?.code == "provider_token_invalid")
            // A fresh sign-in with the same Google account can (seed: "You can reconnect it later at any time").
            let after: ProviderToken = try await backend.post(
                "/_admin/provider/google/token", ProviderTokenBody(subject: before.subject)
            ).decode()
            let reconnect = try await backend.post(
                "/me/auth-methods/connect", ConnectBody(provider: .google, idToken: after.idToken), token: token)
            #expect(reconnect.status == 200)
            #expect(try await Self.grants(backend, "usr_athlete", .google).map(\.1) == [true, false])
        }
    }

    @Test func disconnectTellsTheEmail() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            #expect(
                try await backend.post(
                    "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token,
                    reauth: grant.reauthToken
                ).status == 200)
            let notices = try await backend.outbox().filter { $0.kind == "provider_disconnected_notice" }
            #expect(notices.map(\.to) == ["jdoe@mail.com"])
            #expect(notices.map(\.purpose) == ["apple_disconnect"])
        }
    }

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
