import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// Seed 003's "Verification Limitations": a session recovered by email reaches its profile and settings
/// and re-verifies a phone; every other change answers 403 limited_access until then.
@Suite struct LimitedAccessTests {
    static let oldNumber = "+995511300000"
    static let newNumber = "+995511300001"
    static let takenNumber = "+995511300002"

    /// One representative of each family of changes a limited session may not make.
    static let refused: [(method: String, path: String, body: String?)] = [
        ("POST", "/auth/reauth/password", #"{"password": "correct-horse-42"}"#),
        ("POST", "/auth/reauth/email", nil),
        ("POST", "/auth/email/request-change", #"{"email": "new.address@mail.com"}"#),
        (
            "POST", "/auth/email/add-with-password",
            #"{"email": "new.address@mail.com", "password": "violet-harbor-77"}"#
        ),
        ("POST", "/auth/email/resend", nil),
        ("GET", "/auth/email-available?email=new.address@mail.com", nil),
        ("POST", "/auth/password/change", #"{"new_password": "violet-harbor-77"}"#),
        ("POST", "/me/auth-methods/disconnect", #"{"provider": "apple"}"#),
        ("POST", "/me/auth-methods/connect", #"{"provider": "google", "id_token": "anything"}"#),
        ("GET", "/me/delete-preflight", nil),
        ("DELETE", "/me", nil),
        ("POST", "/auth/phone/request-otp", #"{"phone": "+995511300001", "purpose": "add_phone"}"#),
        ("POST", "/auth/phone/request-otp", #"{"phone": "+995511300000", "purpose": "reauth"}"#),
        ("POST", "/me/recovery-email", #"{"email": "new.address@mail.com", "password": "violet-harbor-77"}"#),
        ("POST", "/me/onboarding/continue", #"{"from": "finish"}"#),
    ]

    private func send(
        _ backend: TestBackend, _ method: String, _ path: String, _ body: String?, token: String
    ) async throws -> Reply {
        try await backend.send(.init(rawValue: method), path, raw: body.map { Data($0.utf8) }, token: token)
    }

    private func reverify(_ backend: TestBackend, _ phone: String, code: String, token: String) async throws -> Reply {
        let accepted: OTPRequestAccepted = try await backend.requestOTP(phone, .reverifyPhone, token: token).decode()
        return try await backend.verify(accepted.requestId, code, token: token)
    }

    @Test func everyOtherChangeIsRefusedWith403LimitedAccess() async throws {
        try await TestBackend.with(scenario: "limited-access") { (backend: TestBackend) async throws in
            let token = try await backend.signIn().accessToken
            for (method, path, body) in Self.refused {
                let reply = try await send(backend, method, path, body, token: token)
                #expect(reply.status == 403, "\(method) \(path)")
                #expect(reply.error?.code == "limited_access", "\(method) \(path)")
                #expect(
                    reply.error?.message == "Your account has limited access until you verify your phone number.",
                    "\(method) \(path)")
            }
            // Nothing was changed or sent on the way.
            #expect(try await backend.outbox().isEmpty)
        }
    }

    @Test func profileSettingsAndSessionEndpointsStillWork() async throws {
        try await TestBackend.with(scenario: "limited-access") { (backend: TestBackend) async throws in
            let tokens = try await backend.signIn()
            let token = tokens.accessToken
            #expect(try await backend.get("/me/auth-methods", token: token).status == 200)
            let me: CurrentUser = try await backend.get("/auth/me", token: token).decode()
            #expect(me.profile?.access?.known == .limited)
            let profile: Profile = try await backend.get("/me/profile", token: token).decode()
            #expect(profile.access?.known == .limited)
            let saved = try await backend.send(
                .PUT, "/me/profile", raw: Data(#"{"username": "lostphone2"}"#.utf8), token: token)
            #expect(saved.status == 200)
            #expect(try saved.decode(Profile.self).access?.known == .limited)
            #expect(try await backend.get("/auth/username-available?username=someone", token: token).status == 200)
            let refreshed: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken)
            ).decode()
            #expect(try await backend.send(.POST, "/auth/logout", token: refreshed.accessToken).status == 204)
            #expect(try await backend.get("/auth/me", token: refreshed.accessToken).status == 401)
        }
    }

    @Test func reverifyingTheOldNumberGivesFullAccessAndSignsEveryOtherSessionOut() async throws {
        try await TestBackend.with(scenario: "limited-access") { (backend: TestBackend) async throws in
            let token = try await backend.signIn().accessToken
            let otherLimited = try await backend.signIn().accessToken
            let full: SignedIn = try await backend.post(
                "/auth/login",
                PasswordLoginBody(
                    email: RecoveryTests.email, password: RecoveryTests.password, device: RecoveryTests.otherDevice)
            ).decode()
            let verified = try await reverify(backend, Self.oldNumber, code: "246810", token: token)
            #expect(verified.status == 200)
            let result: VerifyOTPResult = try verified.decode()
            #expect(result.authMethods?.phone == Self.oldNumber)
            let me: CurrentUser = try await backend.get("/auth/me", token: token).decode()
            #expect(me.profile?.access?.known == .full)
            #expect(try await backend.passwordGrant(token: token).reauthToken.isEmpty == false)
            #expect(try await backend.get("/auth/me", token: otherLimited).status == 401)
            #expect(try await backend.get("/auth/me", token: full.session.accessToken).status == 401)
            let notices = try await backend.outbox().filter { $0.kind == "recovery_completed_notice" }
            #expect(notices.map(\.to) == [RecoveryTests.email])
            #expect(notices.first?.status == .live)
        }
    }

    @Test func reverifyingANewNumberMakesItTheAccountsPhone() async throws {
        try await TestBackend.with(scenario: "limited-access") { (backend: TestBackend) async throws in
            let token = try await backend.signIn().accessToken
            let result: VerifyOTPResult = try await reverify(backend, Self.newNumber, code: "135790", token: token)
                .decode()
            #expect(result.purpose.known == .reverifyPhone)
            #expect(result.authMethods?.phone == Self.newNumber)
            let profile: Profile = try await backend.get("/me/profile", token: token).decode()
            #expect(profile.access?.known == .full)
        }
    }

    @Test func aWrongCodeLeavesTheSessionLimited() async throws {
        try await TestBackend.with(scenario: "limited-access") { (backend: TestBackend) async throws in
            let token = try await backend.signIn().accessToken
            let wrong = try await reverify(backend, Self.oldNumber, code: "000000", token: token)
            #expect(wrong.status == 401)
            #expect(wrong.error?.code == "code_incorrect")
            #expect(wrong.error?.attemptsRemaining == 4)
            let me: CurrentUser = try await backend.get("/auth/me", token: token).decode()
            #expect(me.profile?.access?.known == .limited)
        }
    }

    @Test func aNumberAnotherAccountHasIs409() async throws {
        try await TestBackend.with(scenario: "limited-access") { (backend: TestBackend) async throws in
            let token = try await backend.signIn().accessToken
            let taken = try await backend.requestOTP(Self.takenNumber, .reverifyPhone, token: token)
            #expect(taken.status == 409)
            #expect(taken.error?.code == "phone_taken")
        }
    }

    @Test func theCodeRulesApplyToReverification() async throws {
        try await TestBackend.with(scenario: "limited-access") { (backend: TestBackend) async throws in
            let token = try await backend.signIn().accessToken
            let first: OTPRequestAccepted = try await backend.requestOTP(Self.oldNumber, .reverifyPhone, token: token)
                .decode()
            let tooSoon = try await backend.post(
                "/auth/phone/resend-otp", OTPRequestRef(requestId: first.requestId), token: token)
            #expect(tooSoon.status == 429)
            #expect(tooSoon.error?.limit == "cooldown")
            _ = try await backend.advance(seconds: 5 * 60)
            #expect(try await backend.verify(first.requestId, "246810", token: token).status == 410)
        }
    }

    @Test func aFullSessionCannotReverify() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            let full: SignedIn = try await backend.post(
                "/auth/login",
                PasswordLoginBody(
                    email: RecoveryTests.email, password: RecoveryTests.password, device: SignInCodeTests.device)
            ).decode()
            let refused = try await backend.requestOTP(
                Self.oldNumber, .reverifyPhone, token: full.session.accessToken)
            #expect(refused.status == 422)
            #expect(refused.error?.code == "invalid_field")
        }
    }

    @Test func theWholeRecoveryFromLinkToFullAccess() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await RecoveryTests.start(backend)
            let link = try await RecoveryTests.lastLinkToken(backend)
            let signedIn: SignedIn = try await RecoveryTests.complete(backend, link).decode()
            let token = signedIn.session.accessToken
            let before = try await backend.post(
                "/auth/reauth/password", PasswordReauthBody(password: RecoveryTests.password), token: token)
            #expect(before.status == 403)
            #expect(try await reverify(backend, Self.newNumber, code: "135790", token: token).status == 200)
            let me: CurrentUser = try await backend.get("/auth/me", token: token).decode()
            #expect(me.profile?.access?.known == .full)
            #expect(me.authMethods.phone == Self.newNumber)
        }
    }
}
