import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Issue 25, defects 8 and 10: a re-auth grant names its method, and a sensitive action refuses a grant
/// made with its own target (seed 000: you don't verify a phone change with that phone); a password is a
/// factor whenever the target is not the password, so the session alone is enough only for an account
/// with nothing else to verify with.
@Suite struct ReauthTargetTests {
    private func lastRule(_ backend: TestBackend, _ path: String) async throws -> String? {
        try await backend.get("/_admin/journal").decode([JournalEntry].self).last { $0.path == path }?.rule
    }

    private func expectRefusedByTarget(_ reply: Reply) {
        #expect(reply.status == 403)
        #expect(reply.error?.code == "reauth_required")
    }

    @Test(arguments: [SocialProvider.apple, .google])
    func disconnectingAProviderRefusesAGrantMadeWithIt(provider: SocialProvider) async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let own = try await backend.socialGrant(provider, token: token).reauthToken
            let disconnect = DisconnectBody(provider: provider)
            expectRefusedByTarget(
                try await backend.post("/me/auth-methods/disconnect", disconnect, token: token, reauth: own))
            #expect(try await lastRule(backend, "/me/auth-methods/disconnect") == "reauth.grant_by_target")
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(provider == .apple ? methods.appleLinked : methods.googleLinked)
            // The other provider's grant, or the password's, does it.
            let other = try await backend.socialGrant(provider == .apple ? .google : .apple, token: token)
            #expect(
                try await backend.post(
                    "/me/auth-methods/disconnect", disconnect, token: token, reauth: other.reauthToken
                ).status == 200)
        }
    }

    @Test func changingThePhoneRefusesAPhoneGrant() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let phone = try await backend.phoneGrant(token: token)
            expectRefusedByTarget(try await backend.requestOTP(.georgian(1), .changePhone, token: token, reauth: phone))
            #expect(try await lastRule(backend, "/auth/phone/request-otp") == "reauth.grant_by_target")
            let password = try await backend.passwordGrant(token: token).reauthToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP(
                .georgian(1), .changePhone, token: token, reauth: password
            ).decode()
            // Nor can the phone grant finish what the password grant started.
            let code = try await backend.lastCode(to: .georgian(1))
            expectRefusedByTarget(try await backend.verify(accepted.requestId, code, token: token, reauth: phone))
            #expect(try await backend.verify(accepted.requestId, code, token: token, reauth: password).status == 200)
        }
    }

    @Test func changingTheEmailRefusesAnEmailGrant() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let email = try await backend.emailGrant(token: token)
            let body = EmailChangeBody(email: "new.address@mail.com")
            expectRefusedByTarget(
                try await backend.post("/auth/email/request-change", body, token: token, reauth: email))
            #expect(try await lastRule(backend, "/auth/email/request-change") == "reauth.grant_by_target")
            let phone = try await backend.phoneGrant(token: token)
            #expect(
                try await backend.post("/auth/email/request-change", body, token: token, reauth: phone).status == 202)
        }
    }

    @Test func changingThePasswordRefusesAPasswordGrant() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let password = try await backend.passwordGrant(token: token).reauthToken
            let body = ChangePasswordBody(newPassword: "battery-staple-77")
            expectRefusedByTarget(
                try await backend.post("/auth/password/change", body, token: token, reauth: password))
            #expect(try await lastRule(backend, "/auth/password/change") == "reauth.grant_by_target")
            let email = try await backend.emailGrant(token: token)
            #expect(try await backend.post("/auth/password/change", body, token: token, reauth: email).status == 200)
        }
    }

    @Test func deletingTheAccountTakesAGrantOfAnyMethod() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let password = try await backend.passwordGrant(token: token).reauthToken
            #expect(try await backend.send(.DELETE, "/me", token: token, reauth: password).status == 200)
        }
    }

    /// Defect 10: the email is the only sign-in method, but the password can still verify a change of it.
    @Test func onEmailOnlyChangingTheEmailNeedsThePassword() async throws {
        try await TestBackend.with(scenario: "email-only") { backend in
            let token = try await backend.signIn().accessToken
            let body = EmailChangeBody(email: "new.address@mail.com")
            let bare = try await backend.post("/auth/email/request-change", body, token: token)
            #expect(bare.status == 403)
            #expect(bare.error?.code == "reauth_required")
            let password = try await backend.passwordGrant(token: token).reauthToken
            #expect(
                try await backend.post("/auth/email/request-change", body, token: token, reauth: password).status == 202
            )
        }
    }

    /// With nothing else to verify with, the session itself is the proof (seed 000's soft warning).
    @Test func onPhoneOnlyChangingThePhoneNeedsNoGrant() async throws {
        try await TestBackend.with(scenario: "phone-only") { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP(.georgian(1), .changePhone, token: token).status == 202)
        }
    }
}
