import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

/// Issue 49 item 1, the event kinds the first build left out: a provider connected or disconnected, and a dead
/// re-auth, registration or recovery link opened. Each written by the road that makes it, over HTTP on a real
/// SQLite file; both sides of each link's lifetime.
@Suite struct TimelineKindsTests {
    static func kinds(_ backend: TestBackend, user: String, _ kinds: String) async throws -> [TimelineEvent] {
        let escaped = user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? user
        let timeline: Timeline = try await backend.get("/_admin/timeline?user=\(escaped)&kinds=\(kinds)").decode()
        return timeline.events
    }

    // MARK: - Providers

    @Test func connectingAndDisconnectingAProviderAreEventsOfTheAccount() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            let minted: ProviderToken = try await backend.post(
                "/_admin/provider/apple/token", ProviderTokenBody()
            ).decode()
            #expect(
                try await backend.post(
                    "/me/auth-methods/connect", ConnectBody(provider: .apple, idToken: minted.idToken), token: token
                ).status == 200)
            var events = try await Self.kinds(
                backend, user: "usr_nophone", "provider_linked,provider_disconnected")
            #expect(events.map(\.kind) == ["provider_linked"])
            #expect(events.first?.detail.additionalProperties["provider"] == "apple")
            #expect(events.first?.rule == Rule.connectDone.rawValue)

            let grant = try await backend.passwordGrant(token: token)
            #expect(
                try await backend.post(
                    "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token,
                    reauth: grant.reauthToken
                ).status == 200)
            events = try await Self.kinds(backend, user: "usr_nophone", "provider_linked,provider_disconnected")
            #expect(events.map(\.kind) == ["provider_linked", "provider_disconnected"])
            #expect(events.last?.detail.additionalProperties["provider"] == "apple")
            #expect(events.last?.rule == Rule.disconnectDone.rawValue)
        }
    }

    @Test func aRefusedDisconnectIsNoDisconnectedEvent() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            // Without "Verify it's you" the disconnect is refused: nothing was disconnected.
            #expect(
                try await backend.post(
                    "/me/auth-methods/disconnect", DisconnectBody(provider: .google), token: token
                ).status == 403)
            #expect(try await Self.kinds(backend, user: "usr_athlete", "provider_disconnected").isEmpty)
        }
    }

    // MARK: - Dead links opened

    @Test func aSpentVerifyItsYouLinkOpenedAgainIsALinkExpiredEvent() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            let linkToken = try #require(try await backend.outbox().last?.token)
            let confirm = { () async throws -> Reply in
                try await backend.post(
                    "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: linkToken), token: token)
            }
            #expect(try await confirm().status == 200)
            #expect(try await Self.kinds(backend, user: "usr_athlete", "link_expired").isEmpty)
            #expect(try await confirm().status == 410)
            let events = try await Self.kinds(backend, user: "usr_athlete", "link_opened,link_expired")
            #expect(events.map(\.kind) == ["link_opened", "link_expired"])
            #expect(events.last?.detail.additionalProperties["code"] == "link_expired")
        }
    }

    @Test func aRegistrationLinkWorksUntilItsLifetimeAndAfterItIsALinkExpiredEvent() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            for address in ["early@mail.com", "late@mail.com"] {
                if address == "late@mail.com" { _ = try await backend.advance(seconds: SendLimits.cooldown) }
                let registered = try await backend.post(
                    "/auth/register",
                    RegisterBody(email: address, password: "battery-staple-77", device: SignInCodeTests.device))
                #expect(registered.status == 201)
            }
            let links = try await backend.outbox().filter { $0.purpose == "register" }
            let early = try #require(links.first { $0.to == "early@mail.com" }?.token)
            let late = try #require(links.first { $0.to == "late@mail.com" }?.token)
            // `late` was sent one cooldown after `early`: the clock moves to a second before `early` ends, then to
            // the end of `late`.
            _ = try await backend.advance(seconds: LinkLifetimes.registration - SendLimits.cooldown - 1)
            #expect(
                try await backend.post("/auth/register/confirm", EmailLinkConfirmBody(token: early)).status == 200)
            _ = try await backend.advance(seconds: SendLimits.cooldown + 1)
            #expect(
                try await backend.post("/auth/register/confirm", EmailLinkConfirmBody(token: late)).status == 410)
            #expect(try await Self.kinds(backend, user: "early@mail.com", "link_expired").isEmpty)
            let events = try await Self.kinds(backend, user: "late@mail.com", "link_expired")
            #expect(events.map(\.kind) == ["link_expired"])
            #expect(events.first?.subject == "late@mail.com")
        }
    }

    @Test func aRecoveryLinkCheckedPastItsDayIsALinkExpiredEventAndBeforeItNone() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            #expect(try await RecoveryTests.start(backend).status == 202)
            let token = try await RecoveryTests.lastLinkToken(backend)
            _ = try await backend.advance(seconds: LinkLifetimes.recovery - 1)
            #expect(try await RecoveryTests.check(backend, token).status == 200)
            #expect(try await Self.kinds(backend, user: RecoveryTests.email, "link_expired").isEmpty)
            _ = try await backend.advance(seconds: 1)
            #expect(try await RecoveryTests.check(backend, token).status == 410)
            let events = try await Self.kinds(backend, user: RecoveryTests.email, "link_expired")
            #expect(events.map(\.kind) == ["link_expired"])
            #expect(events.first?.rule == Rule.recoveryLinkExpired.rawValue)
        }
    }

    @Test func aRecoveryLinkCompletedPastItsDayIsALinkExpiredEventAndBeforeItNone() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            #expect(try await RecoveryTests.start(backend).status == 202)
            let early = try await RecoveryTests.lastLinkToken(backend)
            _ = try await backend.advance(seconds: LinkLifetimes.recovery - 1)
            #expect(try await RecoveryTests.complete(backend, early).status == 200)
            #expect(try await Self.kinds(backend, user: RecoveryTests.email, "link_expired").isEmpty)

            // A second link, completed without the check the app makes first, a second past its day.
            #expect(try await RecoveryTests.start(backend).status == 202)
            let late = try await RecoveryTests.lastLinkToken(backend)
            #expect(late != early)
            _ = try await backend.advance(seconds: LinkLifetimes.recovery)
            #expect(try await RecoveryTests.complete(backend, late).status == 410)
            let events = try await Self.kinds(backend, user: RecoveryTests.email, "link_expired")
            #expect(events.map(\.kind) == ["link_expired"])
            #expect(events.first?.rule == Rule.recoveryLinkExpired.rawValue)
            #expect(events.first?.detail.additionalProperties["code"] == "link_expired")
        }
    }

    // MARK: - A sign-in that ran out

    @Test func aSignInPastItsRefreshLifetimeEndsOnceAsExpiredAndItsRefreshSaysSo() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            // A second before its lifetime ends the refresh token still works, and nothing has ended.
            _ = try await backend.advance(seconds: SessionRules.refreshLifetime - 1)
            let rotated: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: first.refreshToken)
            ).decode()
            #expect(try await Self.kinds(backend, user: "usr_athlete", "session_ended").isEmpty)
            let rotatedAt = try await OutboxTextTests.now(backend)

            _ = try await backend.advance(seconds: SessionRules.refreshLifetime)
            let refused = try await backend.post("/auth/refresh", RefreshBody(refreshToken: rotated.refreshToken))
            #expect(refused.status == 401)
            #expect(refused.error?.reason == SessionEndReason.expired.rawValue)
            let call = try await backend.get("/me/auth-methods", token: rotated.accessToken)
            #expect(call.status == 401)
            #expect(call.error?.reason == SessionEndReason.expired.rawValue)
            // Seen again: still one end, dated when the lifetime ran out, with no one's address.
            #expect(
                try await backend.post("/auth/refresh", RefreshBody(refreshToken: rotated.refreshToken)).error?
                    .reason == SessionEndReason.expired.rawValue)
            let events = try await Self.kinds(backend, user: "usr_athlete", "session_started,session_ended")
            #expect(events.map(\.kind) == ["session_started", "session_ended"])
            let ended = try #require(events.last)
            #expect(ended.detail.additionalProperties["reason"] == "expired")
            #expect(ended.at == rotatedAt.addingTimeInterval(SessionRules.refreshLifetime))
            #expect(ended.sessionId == events.first?.sessionId)
            #expect(ended.clientAddress == nil)
        }
    }

    // MARK: - A deletion's hold ran out

    @Test func aDeletedAccountsHoldEndsOnceAsAnEventWhenItRunsOutAndNotBefore() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            let deleted: AccountDeleted = try await backend.send(
                .DELETE, "/me", token: token, reauth: grant.reauthToken
            ).decode()
            _ = try await backend.advance(seconds: DeletionRules.holdDuration - 1)
            #expect(try await Self.kinds(backend, user: "usr_athlete", "deletion_hold_ended").isEmpty)
            _ = try await backend.advance(seconds: 1)
            var events = try await Self.kinds(backend, user: "usr_athlete", "account_deleted,deletion_hold_ended")
            #expect(events.map(\.kind) == ["account_deleted", "deletion_hold_ended"])
            #expect(events.last?.at == deleted.identityHeldUntil)
            #expect(events.last?.clientAddress == nil)
            // Later sweeps do not write it again.
            _ = try await backend.advance(seconds: 3600)
            events = try await Self.kinds(backend, user: "usr_athlete", "deletion_hold_ended")
            #expect(events.count == 1)
        }
    }
}
