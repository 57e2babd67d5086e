import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Rules decide on what the write transaction sees, so requests racing each other cannot both pass a
/// check that only one of them may pass (issue 11, defect 1).
@Suite struct ConcurrentRuleTests {
    static let rounds = 30

    @Test func racingDisconnectsOfTheLastTwoMethodsLeaveOne() async throws {
        try await TestBackend.with(scenario: "apple-google") { backend in
            for round in 0..<Self.rounds {
                #expect(
                    try await backend.post("/_admin/scenario", LoadScenarioBody(name: "apple-google")).status == 200)
                let token = try await backend.signIn().accessToken
                // Each disconnect verified with the other provider: never with its own (ReauthRule).
                let byApple = try await backend.socialGrant(.apple, token: token).reauthToken
                let byGoogle = try await backend.socialGrant(.google, token: token).reauthToken
                async let apple = backend.post(
                    "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token, reauth: byGoogle)
                async let google = backend.post(
                    "/me/auth-methods/disconnect", DisconnectBody(provider: .google), token: token, reauth: byApple)
                let replies = try await [apple, google]
                #expect(replies.map(\.status).sorted() == [200, 409], "round \(round)")
                #expect(replies.compactMap(\.error?.code) == ["last_method"], "round \(round)")
                let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
                #expect([methods.appleLinked, methods.googleLinked].filter { $0 }.count == 1, "round \(round)")
                // The loser's grant stays live; only the winner's was revoked with its unlink.
                let live =
                    try await DisconnectTests.grants(backend, "usr_social", .apple).filter { !$0.1 }.count
                    + DisconnectTests.grants(backend, "usr_social", .google).filter { !$0.1 }.count
                #expect(live == 1, "round \(round)")
            }
        }
    }

    /// Two recovery requests at once for one address: the cooldown lets exactly one through, and
    /// one link is live.
    @Test func racingRecoveryStartsSendOneLink() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { backend in
            for round in 0..<Self.rounds {
                #expect(
                    try await backend.post("/_admin/scenario", LoadScenarioBody(name: "recovery-ready")).status == 200)
                async let first = RecoveryTests.start(backend)
                async let second = RecoveryTests.start(backend)
                let replies = try await [first, second]
                #expect(replies.map(\.status).sorted() == [202, 429], "round \(round)")
                let links = try await backend.outbox().filter { $0.kind == "recovery_link" }
                #expect(links.count == 1, "round \(round)")
            }
        }
    }

    @Test func oneAfterTheOtherIs200Then409() async throws {
        try await TestBackend.with(scenario: "apple-google") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.socialGrant(.google, token: token).reauthToken
            let first = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token, reauth: grant)
            #expect(first.status == 200)
            let second = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .google), token: token, reauth: grant)
            #expect(second.status == 409)
            #expect(second.error?.code == "last_method")
        }
    }

    /// Re-auth by a provider reads the link in its own transaction: once Apple is gone, an Apple id
    /// token minted before the disconnect no longer opens the re-auth window.
    @Test func reauthWithAProviderDisconnectedMeanwhileIsRefused() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let minted: ProviderToken = try await backend.post("/_admin/provider/apple/token", ProviderTokenBody())
                .decode()
            let grant = try await backend.passwordGrant(token: token).reauthToken
            #expect(
                try await backend.post(
                    "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token, reauth: grant
                ).status == 200)
            let reply = try await backend.post(
                "/auth/reauth/social", SocialReauthBody(provider: .apple, idToken: minted.idToken), token: token)
            #expect(reply.status == 422)
            #expect(reply.error?.code == "method_unavailable")
        }
    }
}
