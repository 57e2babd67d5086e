import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `POST /auth/links/inspect` over real HTTP (issue 27): every kind of link and every state it can be in,
/// told without spending it; a token never issued is a 404 whatever its shape, and never reaches the journal.
@Suite struct LinkInspectTests {
    private func inspect(_ backend: TestBackend, _ token: String) async throws -> Reply {
        try await backend.post("/auth/links/inspect", EmailLinkConfirmBody(token: token))
    }

    private func info(_ backend: TestBackend, _ token: String) async throws -> LinkInfo {
        let reply = try await inspect(backend, token)
        #expect(reply.status == 200)
        return try reply.decode()
    }

    private func lastToken(_ backend: TestBackend, kind: String, to address: String? = nil) async throws -> String {
        let message = try await backend.outbox().last { $0.kind == kind && (address == nil || $0.to == address) }
        return try #require(message?.token)
    }

    private func requestChange(_ backend: TestBackend, to email: String, session: String) async throws {
        let grant = try await backend.passwordGrant(token: session)
        let sent = try await backend.post(
            "/auth/email/request-change", EmailChangeBody(email: email), token: session, reauth: grant.reauthToken)
        #expect(sent.status == 202)
    }

    @Test func anEmailChangeLinkIsLiveThenSupersededThenUsedAndAskingNeverSpendsIt() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn().accessToken
            try await requestChange(backend, to: "first@gmail.com", session: session)
            let first = try await lastToken(backend, kind: "email_verify_link")
            let live = try await info(backend, first)
            #expect(live.kind.known == .emailChange && live.state.known == .live)
            try await requestChange(backend, to: "second@gmail.com", session: session)
            #expect(try await info(backend, first).state.known == .superseded)

            let second = try await lastToken(backend, kind: "email_verify_link", to: "second@gmail.com")
            #expect(try await info(backend, second).state.known == .live)
            #expect(try await info(backend, second).state.known == .live)
            let verified = try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: second))
            #expect(verified.status == 200)
            #expect(try await info(backend, second).state.known == .used)

            // The old address's way back: live, opened after asking twice, then used.
            let revert = try await lastToken(backend, kind: "email_changed_notice")
            let revertInfo = try await info(backend, revert)
            #expect(revertInfo.kind.known == .emailRevert && revertInfo.state.known == .live)
            #expect(try await info(backend, revert).state.known == .live)
            #expect(try await backend.post("/auth/email/revert", EmailLinkConfirmBody(token: revert)).status == 200)
            #expect(try await info(backend, revert).state.known == .used)
        }
    }

    /// One record of a link's end (`links.ended`): a pending change a revert withdrew reads `superseded`, as
    /// the contract says; a link replaced only after its time ran out reads `expired`, not `used`.
    @Test func aLinkEndedUnopenedReadsWhyItEnded() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn().accessToken
            try await requestChange(backend, to: "first@gmail.com", session: session)
            let first = try await lastToken(backend, kind: "email_verify_link")
            #expect(try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: first)).status == 200)
            let revert = try await lastToken(backend, kind: "email_changed_notice")
            try await requestChange(backend, to: "pending@gmail.com", session: session)
            let pending = try await lastToken(backend, kind: "email_verify_link", to: "pending@gmail.com")
            #expect(try await backend.post("/auth/email/revert", EmailLinkConfirmBody(token: revert)).status == 200)
            #expect(try await info(backend, pending).state.known == .superseded)
        }
        try await TestBackend.with { backend in
            let session = try await backend.signIn().accessToken
            try await requestChange(backend, to: "late@gmail.com", session: session)
            let late = try await lastToken(backend, kind: "email_verify_link")
            _ = try await backend.advance(seconds: 30 * 60)
            try await requestChange(backend, to: "later@gmail.com", session: session)
            #expect(try await info(backend, late).state.known == .expired)
        }
    }

    @Test func aLinkPastItsLifetimeIsExpiredWithItsExpiry() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn().accessToken
            try await requestChange(backend, to: "late@gmail.com", session: session)
            let token = try await lastToken(backend, kind: "email_verify_link")
            let live = try await info(backend, token)
            _ = try await backend.advance(seconds: 30 * 60 - 1)
            #expect(try await info(backend, token).state.known == .live)
            _ = try await backend.advance(seconds: 1)
            let expired = try await info(backend, token)
            #expect(expired.state.known == .expired)
            #expect(expired.expiresAt == live.expiresAt)
        }
    }

    @Test func registrationRecoveryAndReauthLinksSayTheirKind() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            let registered = try await backend.post(
                "/auth/register",
                RegisterBody(email: "fresh@mail.com", password: "correct-horse-42", device: SignInCodeTests.device))
            #expect(registered.status == 201 || registered.status == 202)
            let register = try await lastToken(backend, kind: "email_verify_link", to: "fresh@mail.com")
            #expect(try await info(backend, register).kind.known == .register)
            #expect(try await info(backend, register).state.known == .live)
            let confirmed = try await backend.post("/auth/register/confirm", EmailLinkConfirmBody(token: register))
            #expect(confirmed.status == 200)
            #expect(try await info(backend, register).state.known == .used)

            _ = try await backend.post(
                "/auth/recovery/start", RecoveryStartBody(email: RecoveryTests.email, device: SignInCodeTests.device))
            let recovery = try await lastToken(backend, kind: "recovery_link")
            let recoveryInfo = try await info(backend, recovery)
            #expect(recoveryInfo.kind.known == .recovery && recoveryInfo.state.known == .live)
            #expect(try await backend.post("/auth/recovery/check", EmailLinkConfirmBody(token: recovery)).status == 200)
        }
        try await TestBackend.with { backend in
            let session = try await backend.signIn().accessToken
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: session).status == 202)
            let reauth = try await lastToken(backend, kind: "reauth_link")
            #expect(try await info(backend, reauth).kind.known == .reauth)
            #expect(try await info(backend, reauth).state.known == .live)
            let confirm = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: reauth), token: session)
            #expect(confirm.status == 200)
            #expect(try await info(backend, reauth).state.known == .used)
        }
    }

    @Test func anUnknownAndAMalformedTokenGetTheSameNotFoundAndTheJournalNeverShowsATokenAsked() async throws {
        try await TestBackend.with { backend in
            let unknown = try await inspect(backend, "lk_nobodyEverIssuedThisOne0123456789abcdefghij")
            let malformed = try await inspect(backend, "%%% not a token \u{0}")
            let empty = try await inspect(backend, "")
            for reply in [unknown, malformed, empty] {
                #expect(reply.status == 404)
                #expect(reply.error?.code == "link_not_found")
                #expect(reply.error?.message == "This link is not valid.")
            }
            #expect(unknown.data == malformed.data)

            let session = try await backend.signIn().accessToken
            try await requestChange(backend, to: "secret@gmail.com", session: session)
            let token = try await lastToken(backend, kind: "email_verify_link")
            _ = try await info(backend, token)
            let journal = try await backend.get("/_admin/journal")
            let text = String(decoding: journal.data, as: UTF8.self).replacing("\\/", with: "/")
            #expect(text.contains("/auth/links/inspect"))
            #expect(text.contains("link.inspected"))
            #expect(text.contains("link.unknown"))
            #expect(!text.contains(token))
            #expect(!text.contains("lk_nobodyEverIssuedThisOne"))
        }
    }
}
