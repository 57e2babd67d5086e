import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// docs/RULES.md `link.superseded`: a newer "Verify it's you" link replaces the one before, as every other kind
/// of link does. The reference backend left earlier re-auth links working until `accessdeck conform` (issue 32)
/// reported the rule broken.
@Suite struct ReauthLinkSupersededTests {
    @Test func aNewerReauthLinkEndsTheOneBefore() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            let first = try #require(try await backend.outbox().last { $0.kind == "reauth_link" }?.token)
            _ = try await backend.advance(seconds: 30)
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            let second = try #require(try await backend.outbox().last { $0.kind == "reauth_link" }?.token)
            #expect(first != second)

            let old = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: first), token: token)
            #expect(old.status == 410)
            #expect(old.error?.code == "link_superseded")
            let inspected: LinkInfo = try await backend.post("/auth/links/inspect", EmailLinkConfirmBody(token: first))
                .decode()
            #expect(inspected.state.known == .superseded)
            let new = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: second), token: token)
            #expect(new.status == 200)
            // Spent: the link works once.
            let again = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: second), token: token)
            #expect(again.error?.code == "link_expired")
        }
    }
}
