import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `POST /auth/phone/verify-otp`: 5-minute TTL, 5 wrong codes kill a code, one use, cancel.
@Suite struct VerifyOTPTests {
    private func start(_ backend: TestBackend, phone: String = "+995511200300") async throws -> (String, String, String)
    {
        let token = try await backend.signIn().accessToken
        let accepted: OTPRequestAccepted = try await backend.requestOTP(phone, .addPhone, token: token).decode()
        return (token, accepted.requestId, try await backend.lastCode(to: phone))
    }

    private func wrong(_ code: String) -> String {
        code == "000000" ? "111111" : "000000"
    }

    @Test func rightCodeUpdatesThePhoneAndReturnsTheMethods() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let (token, id, code) = try await start(backend)
            let reply = try await backend.verify(id, code, token: token)
            #expect(reply.status == 200)
            let result: VerifyOTPResult = try reply.decode()
            #expect(result.authMethods?.phone == "+995511200300")
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.phone == "+995511200300")
        }
    }

    @Test func changePhoneWithGrantReplacesTheNumber() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            let accepted: OTPRequestAccepted = try await backend.requestOTP(
                "+995511200300", .changePhone, token: token, reauth: grant.reauthToken
            ).decode()
            let code = try await backend.lastCode(to: "+995511200300")
            #expect(try await backend.verify(accepted.requestId, code, token: token).status == 403)
            let reply = try await backend.verify(accepted.requestId, code, token: token, reauth: grant.reauthToken)
            #expect(reply.status == 200)
            #expect(try reply.decode(VerifyOTPResult.self).authMethods?.phone == "+995511200300")
        }
    }

    @Test func wrongCodesCountDownThenTheCodeIsDead() async throws {
        try await TestBackend.with { backend in
            let (token, id, code) = try await start(backend)
            for remaining in [4, 3, 2, 1, 0] {
                let reply = try await backend.verify(id, wrong(code), token: token)
                #expect(reply.status == 401)
                #expect(reply.error?.code == "code_incorrect")
                #expect(reply.error?.message == "Code is incorrect. Try again.")
                #expect(reply.error?.attemptsRemaining == remaining)
            }
            // Even the right code no longer works.
            let after = try await backend.verify(id, code, token: token)
            #expect(after.status == 410)
            #expect(after.error?.code == "code_expired")
            #expect(after.error?.message == "Code expired. Request a new one.")
        }
    }

    @Test func fourWrongCodesStillLeaveTheRightOneWorking() async throws {
        try await TestBackend.with { backend in
            let (token, id, code) = try await start(backend)
            for _ in 0..<4 { _ = try await backend.verify(id, wrong(code), token: token) }
            #expect(try await backend.verify(id, code, token: token).status == 200)
        }
    }

    @Test func codeWorksUntilTheTTLAndNotAfter() async throws {
        try await TestBackend.with { backend in
            let (token, id, code) = try await start(backend)
            _ = try await backend.advance(seconds: 299)
            #expect(try await backend.verify(id, wrong(code), token: token).status == 401)
            _ = try await backend.advance(seconds: 1)
            let reply = try await backend.verify(id, code, token: token)
            #expect(reply.status == 410)
            #expect(reply.error?.code == "code_expired")
        }
    }

    @Test func codeIsOneShot() async throws {
        try await TestBackend.with { backend in
            let (token, id, code) = try await start(backend)
            #expect(try await backend.verify(id, code, token: token).status == 200)
            #expect(try await backend.verify(id, code, token: token).status == 410)
        }
    }

    @Test func cancelledRequestIsExpired() async throws {
        try await TestBackend.with { backend in
            let (token, id, code) = try await start(backend)
            let cancel = try await backend.post("/auth/phone/cancel-otp", OTPRequestRef(requestId: id), token: token)
            #expect(cancel.status == 200)
            #expect(try await backend.verify(id, code, token: token).status == 410)
        }
    }

    @Test func unknownRequestIs404() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.verify("otp_nope", "123456", token: token)
            #expect(reply.status == 404)
            #expect(reply.error?.code == "otp_request_not_found")
        }
    }

    @Test func resendReplacesTheCodeAndRevivesADeadRequest() async throws {
        try await TestBackend.with { backend in
            let (token, id, code) = try await start(backend)
            for _ in 0..<5 { _ = try await backend.verify(id, wrong(code), token: token) }
            _ = try await backend.advance(seconds: 30)
            let resent = try await backend.post("/auth/phone/resend-otp", OTPRequestRef(requestId: id), token: token)
            #expect(resent.status == 202)
            let fresh = try await backend.lastCode(to: "+995511200300")
            #expect(try await backend.outbox().count == 2)
            if fresh != code {
                #expect(try await backend.verify(id, code, token: token).status == 401)
            }
            #expect(try await backend.verify(id, fresh, token: token).status == 200)
        }
    }

    @Test func reauthCodeGivesAGrant() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP("+995511100000", .reauth, token: token)
                .decode()
            let code = try await backend.lastCode(to: "+995511100000")
            let result: VerifyOTPResult = try await backend.verify(accepted.requestId, code, token: token).decode()
            let grant = try #require(result.reauth)
            #expect(grant.method.known == .phone)
            // It verifies a change of another method; a phone change wants another factor (ReauthTargetTests).
            let change = try await backend.post(
                "/auth/email/request-change", EmailChangeBody(email: "new.address@mail.com"), token: token,
                reauth: grant.reauthToken)
            #expect(change.status == 202)
        }
    }

    @Test func testCodesFromTheScenarioAreUsed() async throws {
        try await TestBackend.with(scenario: "resend-exhausted") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            let accepted: OTPRequestAccepted = try await backend.requestOTP(
                "+995511999999", .changePhone, token: token, reauth: grant.reauthToken
            ).decode()
            #expect(try await backend.lastCode(to: "+995511999999") == "246810")
            let verified = try await backend.verify(
                accepted.requestId, "246810", token: token, reauth: grant.reauthToken)
            #expect(verified.status == 200)
        }
    }
}
