import AccessAPI
import Foundation
import Testing

/// Issue 27 over the app's client and the real backend: a link is asked about without spending it, and the
/// revert link, whose token is the proof, opens on a client with no session (the owner on another device).
@Suite struct LinkClientTests {
    /// Issue 27: "Request a new link" on an expired email change is the contract's resend, which works for a
    /// link past its 30 minutes (the moved clock); once the change is no longer pending (opened, or past its
    /// 24 h) the resend is a 404 `link_not_found`, on which the app offers to start the change again.
    @Test func anExpiredChangeIsResentAndOneNoLongerPendingIs404() async throws {
        try await withLiveBackend { live in
            let grant = try await live.client.reauthPassword(password: "correct-horse-42")
            _ = try await live.client.requestEmailChange(email: "new.address@gmail.com", reauthToken: grant.reauthToken)
            _ = try await live.client.adminAdvanceClock(seconds: 31 * 60)
            let old = try #require(try await live.client.adminOutbox().last { $0.kind == "email_verify_link" }?.token)
            let expired = await apiError { try await live.client.verifyEmailLink(token: old) }
            guard case .codeExpired = expired else {
                Issue.record("expected the link to be expired, got \(String(describing: expired))")
                return
            }
            let resent = try await live.client.resendEmailLink()
            #expect(resent.sentTo == "new.address@gmail.com")
            // Past the day a dead change may be resent in: nothing pending any more.
            _ = try await live.client.adminAdvanceClock(seconds: 25 * 60 * 60)
            let gone = await apiError { try await live.client.resendEmailLink() }
            guard case .server(404, "link_not_found", _) = gone else {
                Issue.record("expected 404 link_not_found, got \(String(describing: gone))")
                return
            }
        }
    }

    /// A change whose link was opened is no longer pending either: its resend is the same 404.
    @Test func aChangeAlreadyAppliedIsNotResent() async throws {
        try await withLiveBackend { live in
            let grant = try await live.client.reauthPassword(password: "correct-horse-42")
            _ = try await live.client.requestEmailChange(email: "new.address@gmail.com", reauthToken: grant.reauthToken)
            let token = try #require(
                try await live.client.adminOutbox().last { $0.kind == "email_verify_link" }?.token)
            _ = try await live.client.verifyEmailLink(token: token)
            let gone = await apiError { try await live.client.resendEmailLink() }
            guard case .server(404, "link_not_found", _) = gone else {
                Issue.record("expected 404 link_not_found, got \(String(describing: gone))")
                return
            }
        }
    }

    @Test func aSignedOutClientAsksAboutTheRevertLinkThenOpensIt() async throws {
        try await withLiveBackend { live in
            let grant = try await live.client.reauthPassword(password: "correct-horse-42")
            _ = try await live.client.requestEmailChange(email: "intruder@gmail.com", reauthToken: grant.reauthToken)
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
