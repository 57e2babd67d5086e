import AccessAPI
import Foundation
import Testing

/// Issue 27 over the app's client and the real backend: a link is asked about without spending it, and the
/// revert link, whose token is the proof, opens on a client with no session (the owner on another device).
@Suite struct LinkClientTests {
    @Test func aSignedOutClientAsksAboutTheRevertLinkThenOpensIt() async throws {
        try await withLiveBackend { live in
            let grant = try await live.client.reauthenticate(password: "correct-horse-42")
            _ = try await live.client.requestEmailChange(to: "intruder@gmail.com", reauthToken: grant.reauthToken)
            let verify = try #require(
                try await live.client.adminOutbox().last { $0.kind == "email_verify_link" }?.token)
            _ = try await live.client.verifyEmailLink(token: verify)
            let revert = try #require(
                try await live.client.adminOutbox().last { $0.kind == "email_changed_notice" }?.token)
            await live.client.signOutLocally()

            let asked = try await live.client.inspectLink(token: revert)
            #expect(asked.kind.known == .emailRevert && asked.state.known == .live)
            #expect(try await live.client.inspectLink(token: revert).state.known == .live)
            let reverted = try await live.client.revertEmailChange(token: revert)
            #expect(reverted.email == "jdoe@mail.com")
            #expect(try await live.client.inspectLink(token: revert).state.known == .used)
            let unknown = await apiError { try await live.client.inspectLink(token: "lk_never") }
            guard case .server(404, "link_not_found", _) = unknown else {
                Issue.record("expected 404 link_not_found, got \(String(describing: unknown))")
                return
            }
        }
    }
}
