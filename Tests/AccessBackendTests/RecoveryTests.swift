import AccessAPI
import AccessBackendTesting
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Seed 003's "Can't access your account?": a recovery link by email, the password with it, a limited
/// session; the same answer for every address; the lockout shared with Log in.
@Suite struct RecoveryTests {
    static let email = "lost.phone@mail.com"
    static let password = "correct-horse-42"
    static let otherDevice = DeviceInfo(
        deviceName: "Other terminal", systemName: "Linux", systemVersion: "6.1", identifier: "dev_test_2",
        publicKey: Data(repeating: 9, count: 32).base64EncodedString())

    static func start(_ backend: TestBackend, _ email: String = email) async throws -> Reply {
        try await backend.post("/auth/recovery/start", RecoveryStartBody(email: email, device: SignInCodeTests.device))
    }

    static func check(_ backend: TestBackend, _ token: String) async throws -> Reply {
        try await backend.post("/auth/recovery/check", EmailLinkConfirmBody(token: token))
    }

    static func complete(
        _ backend: TestBackend, _ token: String, password: String = password,
        device: DeviceInfo = SignInCodeTests.device
    ) async throws -> Reply {
        try await backend.post(
            "/auth/recovery/complete", RecoveryCompleteBody(token: token, password: password, device: device))
    }

    static func lastLinkToken(_ backend: TestBackend) async throws -> String {
        let link = try await backend.outbox().last { $0.kind == "recovery_link" }
        return try #require(link?.token)
    }

    private func expectLimit(_ reply: Reply, _ limit: String, retryAfter: Int) {
        #expect(reply.status == 429)
        #expect(reply.error?.code == "rate_limited")
        #expect(reply.error?.limit == limit)
        #expect(reply.error?.retryAfter == retryAfter)
        #expect(reply.headers["Retry-After"].first == String(retryAfter))
        if limit != "login_lockout" {
            #expect(reply.error?.message == "For security reasons, please wait before requesting another recovery.")
        }
    }

    // MARK: start

    @Test func aKnownAndAnUnknownAddressGetTheSameAnswerButOnlyTheKnownOneALink() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            let known = try await Self.start(backend, "Lost.Phone@mail.com")
            let unknown = try await Self.start(backend, "nobody@mail.com")
            #expect(known.status == 202 && unknown.status == 202)
            let knownBody: RecoveryStarted = try known.decode()
            let unknownBody: RecoveryStarted = try unknown.decode()
            #expect(knownBody.resendAfter == unknownBody.resendAfter)
            let knownKeys = (try JSONSerialization.jsonObject(with: known.data) as? [String: Any])?.keys
            let unknownKeys = (try JSONSerialization.jsonObject(with: unknown.data) as? [String: Any])?.keys
            #expect(knownKeys.map(Set.init) == ["email", "resend_after"])
            #expect(unknownKeys.map(Set.init) == ["email", "resend_after"])
            let outbox = try await backend.outbox()
            let links = outbox.filter { $0.kind == "recovery_link" }
            #expect(links.count == 1)
            #expect(links.first?.to == Self.email)
            #expect(links.first?.link?.contains("/recover?token=") == true)
            #expect(links.first?.status == .live)
            let notices = outbox.filter { $0.kind == "recovery_started_notice" }
            #expect(notices.map(\.to) == ["+995511300000"])
            #expect(notices.first?.channel == "sms")
            #expect(!outbox.contains { $0.to.lowercased().contains("nobody") })
        }
    }

    @Test func everyRequestIsLoggedWithItsIPAndDeviceAndNeverAnUnknownAddressInPlain() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend)
            _ = try await Self.start(backend, "nobody@mail.com")
            struct Logged {
                var emailKey: String
                var userId: String?
                var ip: String?
                var deviceIdentifier: String
                var deviceName: String
                var linkSent: Bool
            }
            let rows = try await backend.running.store.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM recovery_requests ORDER BY id").map { row in
                    Logged(
                        emailKey: row["email_key"], userId: row["user_id"], ip: row["ip"],
                        deviceIdentifier: row["device_identifier"], deviceName: row["device_name"],
                        linkSent: row["link_sent"])
                }
            }
            #expect(rows.count == 2)
            for row in rows {
                #expect(row.ip == "127.0.0.1")
                #expect(row.deviceIdentifier == "dev_test_1")
                #expect(row.deviceName == "Terminal on test")
                #expect(!row.emailKey.contains("@"))
            }
            #expect(rows.map(\.linkSent) == [true, false])
            #expect(rows.map(\.userId) == ["usr_lost", nil])
        }
    }

    @Test func invalidAddressOrDeviceIs422() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            let invalid = try await Self.start(backend, "lost.phone@")
            #expect(invalid.status == 422)
            #expect(invalid.error?.code == "invalid_email")
            var device = SignInCodeTests.device
            device.publicKey = "short"
            let badDevice = try await backend.post(
                "/auth/recovery/start", RecoveryStartBody(email: Self.email, device: device))
            #expect(badDevice.status == 422)
            #expect(badDevice.error?.code == "invalid_field")
        }
    }

    @Test func recoveryEmailsWaitThirtySecondsForKnownAndUnknownAddressesAlike() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            for address in [Self.email, "nobody@mail.com"] {
                #expect(try await Self.start(backend, address).status == 202)
            }
            _ = try await backend.advance(seconds: 29)
            for address in [Self.email, "nobody@mail.com"] {
                expectLimit(try await Self.start(backend, address), "cooldown", retryAfter: 1)
            }
            _ = try await backend.advance(seconds: 1)
            for address in [Self.email, "nobody@mail.com"] {
                #expect(try await Self.start(backend, address).status == 202)
            }
        }
    }

    @Test func atMostFiveRecoveryEmailsPerDay() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            for index in 0..<5 {
                if index > 0 { _ = try await backend.advance(seconds: 30) }
                #expect(try await Self.start(backend).status == 202)
            }
            _ = try await backend.advance(seconds: 30)
            // The first of the five was 150 s ago: it leaves the window 24 h after it was sent.
            expectLimit(try await Self.start(backend), "daily_cap", retryAfter: 86_400 - 150)
            _ = try await backend.advance(seconds: 86_400 - 150 - 1)
            expectLimit(try await Self.start(backend), "daily_cap", retryAfter: 1)
            _ = try await backend.advance(seconds: 1)
            #expect(try await Self.start(backend).status == 202)
            #expect(try await backend.outbox().filter { $0.kind == "recovery_link" }.count == 6)
        }
    }

    // MARK: the link

    @Test func checkTellsTheAddressAndExpiryWithoutSpendingTheLink() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            let started: RecoveryStarted = try await Self.start(backend).decode()
            let token = try await Self.lastLinkToken(backend)
            for _ in 0..<2 {
                let link: RecoveryLink = try await Self.check(backend, token).decode()
                #expect(link.email == Self.email)
                #expect(link.expiresAt == started.resendAfter.addingTimeInterval(86_400 - 30))
            }
            #expect(try await backend.outbox().last { $0.kind == "recovery_link" }?.status == .live)
            let unknown = try await Self.check(backend, "rc_nobody")
            #expect(unknown.status == 404)
            #expect(unknown.error?.code == "link_not_found")
        }
    }

    @Test func theLinkLivesADay() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend)
            let token = try await Self.lastLinkToken(backend)
            _ = try await backend.advance(seconds: 86_399)
            #expect(try await Self.check(backend, token).status == 200)
            _ = try await backend.advance(seconds: 1)
            let expired = try await Self.check(backend, token)
            #expect(expired.status == 410)
            #expect(expired.error?.code == "link_expired")
            #expect(try await Self.complete(backend, token).status == 410)
            #expect(try await backend.outbox().last { $0.kind == "recovery_link" }?.status == .expired)
        }
    }

    @Test func aNewerLinkEndsTheOlderOne() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend)
            let older = try await Self.lastLinkToken(backend)
            _ = try await backend.advance(seconds: 30)
            _ = try await Self.start(backend)
            let newer = try await Self.lastLinkToken(backend)
            #expect(older != newer)
            #expect(try await Self.check(backend, older).status == 410)
            #expect(try await Self.complete(backend, older).status == 410)
            #expect(try await Self.check(backend, newer).status == 200)
        }
    }

    @Test func aUsedLinkIsGone() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend)
            let token = try await Self.lastLinkToken(backend)
            #expect(try await Self.complete(backend, token).status == 200)
            #expect(try await Self.check(backend, token).status == 410)
            #expect(try await Self.complete(backend, token).status == 410)
            #expect(try await backend.outbox().last { $0.kind == "recovery_link" }?.status == .used)
        }
    }

    // MARK: complete

    @Test func aWrongPasswordIs401AndLeavesTheLinkUsable() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend)
            let token = try await Self.lastLinkToken(backend)
            let wrong = try await Self.complete(backend, token, password: "wrong-horse-42")
            #expect(wrong.status == 401)
            #expect(wrong.error?.code == "credentials_invalid")
            #expect(wrong.error?.message == "Invalid email or password")
            #expect(try await Self.check(backend, token).status == 200)
            #expect(try await Self.complete(backend, token).status == 200)
        }
    }

    @Test func theThirdFailureLocksForThirtySecondsAndSendsOneLockoutNotice() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend)
            let token = try await Self.lastLinkToken(backend)
            for _ in 0..<2 {
                #expect(try await Self.complete(backend, token, password: "wrong-horse-42").status == 401)
            }
            #expect(try await backend.outbox().filter { $0.kind == "lockout_notice" }.isEmpty)
            expectLimit(
                try await Self.complete(backend, token, password: "wrong-horse-42"), "login_lockout", retryAfter: 30)
            _ = try await backend.advance(seconds: 29)
            // Refused before the password is looked at: the right one waits too, and no second notice.
            expectLimit(try await Self.complete(backend, token), "login_lockout", retryAfter: 1)
            let notices = try await backend.outbox().filter { $0.kind == "lockout_notice" }
            #expect(notices.map(\.to) == [Self.email])
            _ = try await backend.advance(seconds: 1)
            #expect(try await Self.complete(backend, token).status == 200)
        }
    }

    @Test func loginAndRecoveryFailuresShareOneCount() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            for _ in 0..<2 {
                let login = try await backend.post(
                    "/auth/login",
                    PasswordLoginBody(email: Self.email, password: "wrong-horse-42", device: SignInCodeTests.device))
                #expect(login.status == 401)
            }
            _ = try await Self.start(backend)
            let token = try await Self.lastLinkToken(backend)
            expectLimit(
                try await Self.complete(backend, token, password: "wrong-horse-42"), "login_lockout", retryAfter: 30)
            let login = try await backend.post(
                "/auth/login",
                PasswordLoginBody(email: Self.email, password: Self.password, device: SignInCodeTests.device))
            #expect(login.status == 429)
        }
    }

    @Test func anAddressAlreadyLockedWaitsBeforeItsRecoveryPassword() async throws {
        try await TestBackend.with(scenario: "recovery-locked") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend)
            let token = try await Self.lastLinkToken(backend)
            expectLimit(try await Self.complete(backend, token), "login_lockout", retryAfter: 30)
            _ = try await backend.advance(seconds: 30)
            #expect(try await Self.complete(backend, token).status == 200)
        }
    }

    @Test func theRightPasswordGivesALimitedSessionThatARefreshKeepsLimited() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend)
            let token = try await Self.lastLinkToken(backend)
            let signedIn: SignedIn = try await Self.complete(backend, token).decode()
            #expect(signedIn.profile?.access?.known == .limited)
            #expect(!signedIn.isNewUser)
            #expect(signedIn.authMethods.email == Self.email)
            let me: CurrentUser = try await backend.get("/auth/me", token: signedIn.session.accessToken).decode()
            #expect(me.profile?.access?.known == .limited)
            #expect(me.deviceId == signedIn.deviceId)
            let refreshed: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: signedIn.session.refreshToken)
            ).decode()
            let after: CurrentUser = try await backend.get("/auth/me", token: refreshed.accessToken).decode()
            #expect(after.profile?.access?.known == .limited)
            let refused = try await backend.post(
                "/auth/reauth/password", PasswordReauthBody(password: Self.password), token: refreshed.accessToken)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "limited_access")
        }
    }

    @Test func completingARecoveryProvesAnUnverifiedAddress() async throws {
        try await TestBackend.with(scenario: "onboarding-unverified") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend, "later@mail.com")
            let token = try await Self.lastLinkToken(backend)
            let signedIn: SignedIn = try await Self.complete(backend, token, password: "violet-harbor-77").decode()
            #expect(signedIn.profile?.emailVerified == true)
        }
    }

    /// Generator issue 934's workaround covers this answer too: no phone is an explicit null.
    @Test func anAccountWithoutPhoneRecoversWithAnExplicitNullPhone() async throws {
        try await TestBackend.with(scenario: "no-phone") { (backend: TestBackend) async throws in
            _ = try await Self.start(backend, "jdoe@mail.com")
            #expect(try await backend.outbox().filter { $0.kind == "recovery_started_notice" }.isEmpty)
            let token = try await Self.lastLinkToken(backend)
            let reply = try await Self.complete(backend, token)
            #expect(reply.status == 200)
            let object = try JSONSerialization.jsonObject(with: reply.data) as? [String: Any]
            let methods = object?["auth_methods"] as? [String: Any]
            #expect(methods?["phone"] is NSNull)
        }
    }

    @Test func aPasswordSignInIsFullAccess() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            let signedIn: SignedIn = try await backend.post(
                "/auth/login",
                PasswordLoginBody(email: Self.email, password: Self.password, device: SignInCodeTests.device)
            ).decode()
            #expect(signedIn.profile?.access?.known == .full)
            let profile: Profile = try await backend.get("/me/profile", token: signedIn.session.accessToken).decode()
            #expect(profile.access?.known == .full)
        }
    }
}

/// Seed 003's "new device sign-in" security event.
@Suite struct NewDeviceNoticeTests {
    private func login(_ backend: TestBackend, device: DeviceInfo) async throws -> Reply {
        try await backend.post(
            "/auth/login",
            PasswordLoginBody(email: RecoveryTests.email, password: RecoveryTests.password, device: device))
    }

    private func notices(_ backend: TestBackend) async throws -> [OutboxMessage] {
        try await backend.outbox().filter { $0.kind == "new_device_notice" }
    }

    @Test func anExistingAccountIsToldOfEachDeviceItNeverUsedBefore() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            #expect(try await login(backend, device: SignInCodeTests.device).status == 200)
            #expect(try await notices(backend).map(\.to) == [RecoveryTests.email])
            #expect(try await login(backend, device: SignInCodeTests.device).status == 200)
            #expect(try await notices(backend).count == 1)
            #expect(try await login(backend, device: RecoveryTests.otherDevice).status == 200)
            #expect(try await notices(backend).count == 2)
        }
    }

    @Test func aRecoveryFromANewDeviceIsTold() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await RecoveryTests.start(backend)
            let token = try await RecoveryTests.lastLinkToken(backend)
            #expect(try await RecoveryTests.complete(backend, token).status == 200)
            #expect(try await notices(backend).map(\.channel) == ["email"])
        }
    }

    @Test func anAccountWithoutEmailIsToldByText() async throws {
        try await TestBackend.with(scenario: "phone-only") { (backend: TestBackend) async throws in
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            let code = try await backend.lastCode(to: "+995511100000")
            let signedIn: SignedIn = try await backend.post(
                "/auth/sign-in/code/verify",
                VerifySignInCodeBody(challengeId: challenge.challengeId, code: code, device: SignInCodeTests.device)
            ).decode()
            #expect(!signedIn.isNewUser)
            let sent = try await notices(backend)
            #expect(sent.map(\.channel) == ["sms"])
            #expect(sent.map(\.to) == ["+995511100000"])
        }
    }

    @Test func aSignUpIsNotANewDevice() async throws {
        try await TestBackend.with(scenario: "new-user") { (backend: TestBackend) async throws in
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, email: "fresh@mail.com").decode()
            let code = try #require(try await backend.outbox().last?.code)
            let signedIn: SignedIn = try await backend.post(
                "/auth/sign-in/code/verify",
                VerifySignInCodeBody(challengeId: challenge.challengeId, code: code, device: SignInCodeTests.device)
            ).decode()
            #expect(signedIn.isNewUser)
            #expect(try await notices(backend).isEmpty)
        }
    }
}
