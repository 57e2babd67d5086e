import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// "Verify it's you": password, phone OTP (see VerifyOTPTests), email link, Apple/Google; 15-min window.
@Suite struct ReauthTests {
    @Test func passwordGrantLastsFifteenMinutes() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            #expect(grant.method.known == .password)
            _ = try await backend.advance(seconds: 899)
            #expect(
                try await backend.requestOTP("+995511200300", .changePhone, token: token, reauth: grant.reauthToken)
                    .status == 202)
            _ = try await backend.advance(seconds: 1)
            let expired = try await backend.requestOTP(
                .georgian(7), .changePhone, token: token, reauth: grant.reauthToken)
            #expect(expired.status == 403)
            #expect(expired.error?.code == "reauth_required")
        }
    }

    @Test func wrongPasswordIs401() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.post(
                "/auth/reauth/password", PasswordReauthBody(password: "nope"), token: token)
            #expect(reply.status == 401)
            #expect(reply.error?.code == "password_incorrect")
        }
    }

    @Test func fiveWrongPasswordsIn15MinutesLockPasswordReauth() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            for attempt in 1...5 {
                _ = try await backend.advance(seconds: 60)
                let wrong = try await backend.post(
                    "/auth/reauth/password", PasswordReauthBody(password: "x"), token: token)
                #expect(wrong.status == 401)
                // Each refusal says how many more may be wrong: the fourth warns of the last try.
                #expect(wrong.error?.attemptsRemaining == 5 - attempt)
            }
            // Failures at 60..300 s; now 300 s; the first leaves the window at 960 s.
            let locked = try await backend.post(
                "/auth/reauth/password", PasswordReauthBody(password: "correct-horse-42"), token: token)
            #expect(locked.status == 429)
            #expect(locked.error?.limit == "password_attempts")
            #expect(locked.error?.retryAfter == 660)
            #expect(locked.headers["Retry-After"].first == "660")
            _ = try await backend.advance(seconds: 659)
            #expect(
                try await backend.post(
                    "/auth/reauth/password", PasswordReauthBody(password: "correct-horse-42"), token: token
                ).status == 429)
            _ = try await backend.advance(seconds: 1)
            #expect(try await backend.passwordGrant(token: token).method.known == .password)
        }
    }

    @Test func passwordReauthWithoutAPasswordIs422() async throws {
        try await TestBackend.with(scenario: "phone-only") { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.post("/auth/reauth/password", PasswordReauthBody(password: "x"), token: token)
            #expect(reply.status == 422)
            #expect(reply.error?.code == "method_unavailable")
        }
    }

    @Test func emailLinkIsOneShotAndLastsThirtyMinutes() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let sent = try await backend.send(.POST, "/auth/reauth/email", token: token)
            #expect(sent.status == 202)
            #expect(try sent.decode(EmailLinkSent.self).sentTo == "jdoe@mail.com")
            let message = try #require(try await backend.outbox().last)
            #expect(message.channel == "email" && message.to == "jdoe@mail.com")
            let linkToken = try #require(message.token)
            #expect(message.link?.hasSuffix(linkToken) == true)
            let confirm = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: linkToken), token: token)
            #expect(confirm.status == 200)
            #expect(try confirm.decode(ReauthGrant.self).method.known == .email)
            let again = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: linkToken), token: token)
            #expect(again.status == 410)
            #expect(again.error?.code == "link_expired")

            // Past the cooldown, so a second link goes out (inside it the send is refused, a row with no link).
            _ = try await backend.advance(seconds: 30)
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            let second = try #require(try await backend.outbox().last?.token)
            _ = try await backend.advance(seconds: 1800)
            let late = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: second), token: token)
            #expect(late.status == 410)
            let forged = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: "lk_x"), token: token)
            #expect(forged.status == 404)
        }
    }

    @Test func emailReauthWithoutEmailIs422() async throws {
        try await TestBackend.with(scenario: "apple-only") { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 422)
        }
    }

    @Test(arguments: [SocialProvider.apple, .google])
    func providerTokenIsAcceptedOnce(provider: SocialProvider) async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let minted: ProviderToken = try await backend.post(
                "/_admin/provider/\(provider.rawValue)/token", ProviderTokenBody()
            ).decode()
            let body = SocialReauthBody(provider: provider, idToken: minted.idToken)
            let reply = try await backend.post("/auth/reauth/social", body, token: token)
            #expect(reply.status == 200)
            #expect(try reply.decode(ReauthGrant.self).method.rawValue == provider.rawValue)
            let replay = try await backend.post("/auth/reauth/social", body, token: token)
            #expect(replay.status == 401)
            #expect(replay.error?.code == "provider_token_invalid")
        }
    }

    @Test func anotherProviderAccountIsRefused() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let minted: ProviderToken = try await backend.post(
                "/_admin/provider/apple/token", ProviderTokenBody(subject: "apple_stranger")
            ).decode()
            let reply = try await backend.post(
                "/auth/reauth/social", SocialReauthBody(provider: .apple, idToken: minted.idToken), token: token)
            #expect(reply.status == 401)
        }
    }

    @Test func providerTokenExpiresAfterTenMinutes() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let minted: ProviderToken = try await backend.post("/_admin/provider/google/token", ProviderTokenBody())
                .decode()
            _ = try await backend.advance(seconds: 600)
            let reply = try await backend.post(
                "/auth/reauth/social", SocialReauthBody(provider: .google, idToken: minted.idToken), token: token)
            #expect(reply.status == 401)
        }
    }

    @Test func unlinkedProviderIs422() async throws {
        try await TestBackend.with(scenario: "phone-only") { backend in
            let token = try await backend.signIn().accessToken
            let minted: ProviderToken = try await backend.post("/_admin/provider/apple/token", ProviderTokenBody())
                .decode()
            let reply = try await backend.post(
                "/auth/reauth/social", SocialReauthBody(provider: .apple, idToken: minted.idToken), token: token)
            #expect(reply.status == 422)
        }
    }
}
