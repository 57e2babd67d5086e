import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Seed 004's "continue with" phone or email: a code first, the session only after it; the backend
/// decides whether the account is new. Same code rules as the phone flows, per phone and per email.
@Suite struct SignInCodeTests {
    static let device = DeviceInfo(
        deviceName: "Terminal on test", systemName: "Linux", systemVersion: "6.1", identifier: "dev_test_1",
        publicKey: Data(repeating: 7, count: 32).base64EncodedString())

    static func start(_ backend: TestBackend, phone: String) async throws -> Reply {
        try await backend.post("/auth/sign-in/code", StartSignInBody(channel: .phone, phone: phone, device: device))
    }

    static func start(_ backend: TestBackend, email: String) async throws -> Reply {
        try await backend.post("/auth/sign-in/code", StartSignInBody(channel: .email, email: email, device: device))
    }

    static func verify(
        _ backend: TestBackend, _ id: String, _ code: String, device: DeviceInfo = device
    )
        async throws -> Reply
    {
        try await backend.post(
            "/auth/sign-in/code/verify", VerifySignInCodeBody(challengeId: id, code: code, device: device))
    }

    @Test func aKnownPhoneSignsInToItsAccountOnlyAfterTheCode() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let reply = try await Self.start(backend, phone: "+995 511 100 000")
            #expect(reply.status == 202)
            let challenge: SignInChallenge = try reply.decode()
            #expect(challenge.destination == "+995511100000")
            // No session yet: the answer carries none, and the code is only in the outbox.
            #expect(!String(decoding: reply.data, as: UTF8.self).contains("access_token"))
            let code = try await backend.lastCode(to: "+995511100000")
            let signedIn: SignedIn = try await Self.verify(backend, challenge.challengeId, code).decode()
            #expect(signedIn.session.userId == "usr_athlete")
            #expect(!signedIn.isNewUser)
            #expect(signedIn.authMethods.email == "jdoe@mail.com")
            let me: CurrentUser = try await backend.get("/auth/me", token: signedIn.session.accessToken).decode()
            #expect(me.userId == "usr_athlete")
            #expect(me.deviceId == signedIn.deviceId)
        }
    }

    @Test func anUnknownEmailSignsUpANewAccount() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let challenge: SignInChallenge = try await Self.start(backend, email: "New.User@Mail.com").decode()
            #expect(challenge.destination.lowercased() == "new.user@mail.com")
            let outbox = try await backend.outbox()
            let sent = try #require(outbox.last)
            #expect(sent.channel == "email" && sent.kind == "otp" && sent.purpose == "sign_in")
            let signedIn: SignedIn = try await Self.verify(backend, challenge.challengeId, "135790").decode()
            #expect(signedIn.isNewUser)
            #expect(signedIn.authMethods.email?.lowercased() == "new.user@mail.com")
            #expect(signedIn.authMethods.phone == nil)
            #expect(try await backend.get("/me/auth-methods", token: signedIn.session.accessToken).status == 200)
            // The same address again is the same account.
            _ = try await backend.advance(seconds: 30)
            let again: SignInChallenge = try await Self.start(backend, email: "new.user@mail.com").decode()
            let second: SignedIn = try await Self.verify(backend, again.challengeId, "135790").decode()
            #expect(!second.isNewUser)
            #expect(second.session.userId == signedIn.session.userId)
        }
    }

    @Test func aWrongCodeCountsDownAndTheFifthKillsIt() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let challenge: SignInChallenge = try await Self.start(backend, phone: "+995511123456").decode()
            for remaining in (0..<5).reversed() {
                let wrong = try await Self.verify(backend, challenge.challengeId, "000000")
                #expect(wrong.status == 401)
                #expect(wrong.error?.code == "code_incorrect")
                #expect(wrong.error?.attemptsRemaining == remaining)
            }
            let dead = try await Self.verify(backend, challenge.challengeId, "135790")
            #expect(dead.status == 410)
            #expect(dead.error?.code == "code_expired")
            #expect(try await backend.outbox().last?.status == .exhausted)
        }
    }

    @Test func aCodeLivesFiveMinutes() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let first: SignInChallenge = try await Self.start(backend, phone: "+995511123456").decode()
            _ = try await backend.advance(seconds: 299)
            #expect(try await Self.verify(backend, first.challengeId, "000000").status == 401)
            _ = try await backend.advance(seconds: 1)
            #expect(try await Self.verify(backend, first.challengeId, "135790").status == 410)
            #expect(try await backend.outbox().last?.status == .expired)
            // Resend replaces it.
            let resent = try await backend.post(
                "/auth/sign-in/code/resend", SignInChallengeRef(challengeId: first.challengeId))
            #expect(resent.status == 202)
            #expect(try await Self.verify(backend, first.challengeId, "135790").status == 200)
        }
    }

    @Test func sendsToOnePhoneWaitThirtySecondsAndCountPerAddress() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            #expect(try await Self.start(backend, phone: "+995511123456").status == 202)
            let again = try await Self.start(backend, phone: "+995511123456")
            #expect(again.status == 429)
            #expect(again.error?.limit == "cooldown")
            #expect(again.error?.retryAfter == 30)
            // Another address is not affected.
            #expect(try await Self.start(backend, email: "new.user@mail.com").status == 202)
            _ = try await backend.advance(seconds: 30)
            #expect(try await Self.start(backend, phone: "+995511123456").status == 202)
        }
    }

    @Test func startingAgainReplacesTheEarlierCode() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let first: SignInChallenge = try await Self.start(backend, phone: "+995511100000").decode()
            let firstCode = try await backend.lastCode(to: "+995511100000")
            _ = try await backend.advance(seconds: 30)
            let second: SignInChallenge = try await Self.start(backend, phone: "+995511100000").decode()
            #expect(try await Self.verify(backend, first.challengeId, firstCode).status == 410)
            let statuses = try await backend.outbox().filter { $0.purpose == "sign_in" }.map(\.status)
            #expect(statuses == [.superseded, .live])
            let code = try await backend.lastCode(to: "+995511100000")
            #expect(try await Self.verify(backend, second.challengeId, code).status == 200)
        }
    }

    @Test func badInputIsRefusedWithAClearError() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let invalidPhone = try await Self.start(backend, phone: "+99551")
            #expect(invalidPhone.status == 422)
            #expect(invalidPhone.error?.code == "phone_invalid")
            let invalidEmail = try await Self.start(backend, email: "not-an-email")
            #expect(invalidEmail.status == 422)
            #expect(invalidEmail.error?.code == "invalid_email")
            let missing = try await backend.post(
                "/auth/sign-in/code", StartSignInBody(channel: .phone, email: "a@b.co", device: Self.device))
            #expect(missing.status == 422)
            var badKey = Self.device
            badKey.publicKey = String(repeating: "A", count: 44)
            let key = try await backend.post(
                "/auth/sign-in/code", StartSignInBody(channel: .phone, phone: "+995511123456", device: badKey))
            #expect(key.status == 422)
            #expect(key.error?.code == "invalid_field")
            let unknown = try await Self.verify(backend, "chl_nobody", "123456")
            #expect(unknown.status == 404)
            #expect(unknown.error?.code == "challenge_not_found")
        }
    }

    @Test func theDeviceIsRegisteredOncePerIdentifier() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            var sessions: [SignedIn] = []
            for identifier in ["dev_a", "dev_a", "dev_b"] {
                var device = Self.device
                device.identifier = identifier
                _ = try await backend.advance(seconds: 30)
                let challenge: SignInChallenge = try await Self.start(backend, phone: "+995511100000").decode()
                let code = try await backend.lastCode(to: "+995511100000")
                sessions.append(try await Self.verify(backend, challenge.challengeId, code, device: device).decode())
            }
            #expect(sessions[0].deviceId == sessions[1].deviceId)
            #expect(sessions[0].deviceId != sessions[2].deviceId)
            // A refresh keeps the session on its device.
            let rotated: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: sessions[2].session.refreshToken)
            ).decode()
            let me: CurrentUser = try await backend.get("/auth/me", token: rotated.accessToken).decode()
            #expect(me.deviceId == sessions[2].deviceId)
        }
    }

    @Test func aSignedOutScenarioRefusesTheQAShortcutAndASignedInOneDoesNot() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let refused = try await backend.send(.POST, "/_admin/session")
            #expect(refused.status == 409)
            #expect(refused.error?.code == "signed_out_scenario")
        }
        try await TestBackend.with(scenario: "default") { backend in
            let tokens = try await backend.signIn()
            let me: CurrentUser = try await backend.get("/auth/me", token: tokens.accessToken).decode()
            #expect(me.deviceId == nil)
            #expect(try await backend.get("/auth/me").status == 401)
        }
    }

    @Test func aRecentlyDeletedNumberCannotSignUpAgainForSevenDays() async throws {
        try await TestBackend.with(scenario: "default") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            #expect(try await backend.send(.DELETE, "/me", token: token, reauth: grant.reauthToken).status == 200)
            let held = try await Self.start(backend, phone: "+995511100000")
            #expect(held.status == 409)
            #expect(held.error?.code == "recently_deleted")
            _ = try await backend.advance(seconds: 7 * 86_400)
            #expect(try await Self.start(backend, phone: "+995511100000").status == 202)
        }
    }
}

/// Continue with Apple or Google: no code; the provider account's user, or a new account linked to it.
@Suite struct ProviderSignInTests {
    private func mint(
        _ backend: TestBackend, _ provider: SocialProvider, subject: String? = nil
    ) async throws
        -> String
    {
        let minted: ProviderToken = try await backend.post(
            "/_admin/provider/\(provider.rawValue)/token", ProviderTokenBody(subject: subject)
        ).decode()
        return minted.idToken
    }

    private func signIn(_ backend: TestBackend, _ provider: SocialProvider, _ token: String) async throws -> Reply {
        try await backend.post(
            "/auth/sign-in/provider",
            ProviderSignInBody(provider: provider, idToken: token, device: SignInCodeTests.device))
    }

    @Test func aLinkedProviderAccountSignsInItsUser() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let signedIn: SignedIn = try await signIn(backend, .google, try await mint(backend, .google)).decode()
            #expect(signedIn.session.userId == "usr_athlete")
            #expect(!signedIn.isNewUser)
        }
    }

    @Test func anUnlinkedProviderAccountSignsUpAndIsLinked() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let signedIn: SignedIn = try await signIn(backend, .apple, try await mint(backend, .apple)).decode()
            #expect(signedIn.isNewUser)
            #expect(signedIn.authMethods.appleLinked)
            #expect(signedIn.authMethods.email == nil)
            let again: SignedIn = try await signIn(backend, .apple, try await mint(backend, .apple)).decode()
            #expect(again.session.userId == signedIn.session.userId)
        }
    }

    @Test func anIdTokenWorksOnce() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let token = try await mint(backend, .google)
            #expect(try await signIn(backend, .google, token).status == 200)
            let reused = try await signIn(backend, .google, token)
            #expect(reused.status == 401)
            #expect(reused.error?.code == "provider_token_invalid")
            // Minted for Google, presented as Apple: refused.
            #expect(try await signIn(backend, .apple, try await mint(backend, .google)).status == 401)
        }
    }
}
