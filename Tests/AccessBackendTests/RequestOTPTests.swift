import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `POST /auth/phone/request-otp`: validation, ownership and re-auth before any code is sent.
@Suite struct RequestOTPTests {
    @Test func acceptedRequestSendsARandomCodeToTheOutbox() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let now = try await backend.get("/_admin/clock").decode(ClockState.self).now
            let reply = try await backend.requestOTP("+995 511-200 300", .addPhone, token: token)
            #expect(reply.status == 202)
            let accepted: OTPRequestAccepted = try reply.decode()
            #expect(accepted.phone == "+995511200300")
            #expect(accepted.expiresAt.timeIntervalSince(now) == 300)
            #expect(accepted.resendAfter.timeIntervalSince(now) == 30)
            let code = try await backend.lastCode(to: "+995511200300")
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        }
    }

    @Test(arguments: [
        "995511200300", "+99551120030", "+9955112003001", "+1 555 12", "+995 5ab 200 300", "", "+0123456789",
    ])
    func invalidNumbersAre422(phone: String) async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.requestOTP(phone, .addPhone, token: token)
            #expect(reply.status == 422)
            #expect(reply.error?.code == "phone_invalid")
            #expect(reply.error?.message == "Enter a valid phone number.")
            #expect(try await backend.outbox().isEmpty)
        }
    }

    @Test func takenNumberIs409AndSaysNothingAboutTheOwner() async throws {
        try await TestBackend.with(scenario: "taken-number") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            let reply = try await backend.requestOTP(
                "+995511200300", .changePhone, token: token, reauth: grant.reauthToken)
            #expect(reply.status == 409)
            #expect(reply.error?.code == "phone_taken")
            #expect(reply.error?.message == "This number is already in use by another account.")
            let body = String(decoding: reply.data, as: UTF8.self)
            #expect(!body.contains("usr_other") && !body.contains("other@mail.com"))
            #expect(try await backend.outbox().isEmpty)
        }
    }

    @Test func ownNumberIs422Unchanged() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            let reply = try await backend.requestOTP(
                "+995511100000", .changePhone, token: token, reauth: grant.reauthToken)
            #expect(reply.status == 422)
            #expect(reply.error?.code == "phone_unchanged")
        }
    }

    @Test func changePhoneWithoutReauthIs403() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.requestOTP("+995511200300", .changePhone, token: token)
            #expect(reply.status == 403)
            #expect(reply.error?.code == "reauth_required")
            let forged = try await backend.requestOTP("+995511200300", .changePhone, token: token, reauth: "ra_forged")
            #expect(forged.status == 403)
        }
    }

    @Test func changingTheOnlyMethodNeedsNoReauth() async throws {
        try await TestBackend.with(scenario: "phone-only") { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.requestOTP("+995511200300", .changePhone, token: token)
            #expect(reply.status == 202)
        }
    }

    @Test func reauthCodeGoesOnlyToTheAccountsOwnNumber() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let other = try await backend.requestOTP("+995511200300", .reauth, token: token)
            #expect(other.status == 422)
            #expect(other.error?.code == "phone_mismatch")
            #expect(try await backend.requestOTP("+995511100000", .reauth, token: token).status == 202)
        }
    }

    @Test func noSessionIs401() async throws {
        try await TestBackend.with { backend in
            let reply = try await backend.post(
                "/auth/phone/request-otp", RequestOTPBody(phone: "+995511200300", purpose: .addPhone))
            #expect(reply.status == 401)
        }
    }
}
