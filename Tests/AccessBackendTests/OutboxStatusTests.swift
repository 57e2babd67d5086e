import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// `GET /_admin/outbox` says of each code and link whether it still works, judged on the backend's
/// clock by the rules verify-otp and the link confirmation apply.
@Suite struct OutboxStatusTests {
    private let phone = "+995511200300"

    private func statuses(_ backend: TestBackend) async throws -> [OutboxStatus] {
        try await backend.outbox().map(\.status)
    }

    @Test func aCodeIsLiveUntilItIsVerifiedThenUsed() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP(phone, .addPhone, token: token).decode()
            #expect(try await statuses(backend) == [.live])
            let code = try await backend.lastCode(to: phone)
            #expect(try await backend.verify(accepted.requestId, code, token: token).status == 200)
            #expect(try await statuses(backend) == [.used])
        }
    }

    @Test func aCodeExpiresWhenTheBackendClockPassesItsLifetime() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP(phone, .addPhone, token: token).status == 202)
            _ = try await backend.advance(seconds: CodeRules.lifetime - 1)
            #expect(try await statuses(backend) == [.live])
            _ = try await backend.advance(seconds: 1)
            #expect(try await statuses(backend) == [.expired])
        }
    }

    @Test func aResendOrANewRequestReplacesTheOlderCode() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            let first: OTPRequestAccepted = try await backend.requestOTP(phone, .addPhone, token: token).decode()
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            let resent = try await backend.post(
                "/auth/phone/resend-otp", OTPRequestRef(requestId: first.requestId), token: token)
            #expect(resent.status == 202)
            #expect(try await statuses(backend) == [.superseded, .live])
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            #expect(try await backend.requestOTP(phone, .addPhone, token: token).status == 202)
            #expect(try await statuses(backend) == [.superseded, .superseded, .live])
        }
    }

    @Test func aCancelledCodeAndOneKilledByWrongTriesSaySo() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP(phone, .addPhone, token: token).decode()
            let cancel = try await backend.post(
                "/auth/phone/cancel-otp", OTPRequestRef(requestId: accepted.requestId), token: token)
            #expect(cancel.status == 200)
            #expect(try await statuses(backend) == [.cancelled])
        }
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP(phone, .addPhone, token: token).decode()
            let code = try await backend.lastCode(to: phone)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<CodeRules.maxWrongAttempts {
                #expect(try await backend.verify(accepted.requestId, wrong, token: token).status == 401)
            }
            #expect(try await statuses(backend) == [.exhausted])
        }
    }

    @Test func aLinkIsUsedOnceConfirmedAndExpiresAfterItsLifetime() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            #expect(try await statuses(backend) == [.live])
            let linkToken = try #require(try await backend.outbox().last?.token)
            let confirm = try await backend.post(
                "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: linkToken), token: token)
            #expect(confirm.status == 200)
            #expect(try await statuses(backend) == [.used])

            _ = try await backend.advance(seconds: SendLimits.cooldown)
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            #expect(try await statuses(backend) == [.used, .live])
            _ = try await backend.advance(seconds: LinkLifetimes.reauth)
            #expect(try await statuses(backend) == [.used, .expired])
        }
    }

    // MARK: - What happened to each message stays (issue 28 item 4)

    /// A code killed by 5 wrong tries stays "too many tries" once a new code is sent for the same request.
    @Test func aCodeKilledByWrongTriesStaysSoAfterAResend() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            let accepted: OTPRequestAccepted = try await backend.requestOTP(phone, .addPhone, token: token).decode()
            let code = try await backend.lastCode(to: phone)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<CodeRules.maxWrongAttempts {
                #expect(try await backend.verify(accepted.requestId, wrong, token: token).status == 401)
            }
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            let resent = try await backend.post(
                "/auth/phone/resend-otp", OTPRequestRef(requestId: accepted.requestId), token: token)
            #expect(resent.status == 202)
            #expect(try await statuses(backend) == [.exhausted, .live])
            // And a code that ran out its 5 minutes before the resend stays expired.
            _ = try await backend.advance(seconds: CodeRules.lifetime)
            let again = try await backend.post(
                "/auth/phone/resend-otp", OTPRequestRef(requestId: accepted.requestId), token: token)
            #expect(again.status == 202)
            #expect(try await statuses(backend) == [.exhausted, .expired, .live])
        }
    }

    private func register(_ backend: TestBackend) async throws {
        let reply = try await backend.post(
            "/auth/register",
            RegisterBody(email: "pending@mail.com", password: "violet-harbor-77", device: SignInCodeTests.device))
        #expect(reply.status == 201)
    }

    private func resendRegistration(_ backend: TestBackend) async throws {
        let reply = try await backend.post("/auth/register/resend", EmailOnlyBody(email: "pending@mail.com"))
        #expect(reply.status == 202)
    }

    private func linkStatuses(_ backend: TestBackend) async throws -> [OutboxStatus] {
        try await backend.outbox().filter { $0.kind == "email_verify_link" }.map(\.status)
    }

    /// A link replaced by a newer one was never opened: it reads superseded, not used (issue 28 item 3).
    @Test func aLinkReplacedByANewerOneReadsSuperseded() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            try await register(backend)
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            try await resendRegistration(backend)
            #expect(try await linkStatuses(backend) == [.superseded, .live])
        }
    }

    /// Opening a link a newer one replaced says so, not "expired" (issue 28 item 3); one past its time is
    /// still expired.
    @Test func openingAReplacedLinkSaysANewerOneWasSent() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            try await register(backend)
            let first = try #require(try await backend.outbox().last { $0.kind == "email_verify_link" }?.token)
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            try await resendRegistration(backend)
            let refused = try await backend.post("/auth/register/confirm", EmailLinkConfirmBody(token: first))
            #expect(refused.status == 410)
            #expect(refused.error?.code == "link_superseded")
            let newest = try #require(try await backend.outbox().last { $0.kind == "email_verify_link" }?.token)
            _ = try await backend.advance(seconds: LinkLifetimes.registration)
            let late = try await backend.post("/auth/register/confirm", EmailLinkConfirmBody(token: newest))
            #expect(late.error?.code == "link_expired")
        }
    }

    /// A link opened after its lifetime is refused, and stays expired once a newer one is sent.
    @Test func aLinkRefusedAsExpiredStaysExpiredAfterANewOne() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            try await register(backend)
            let token = try #require(try await backend.outbox().last { $0.kind == "email_verify_link" }?.token)
            _ = try await backend.advance(seconds: LinkLifetimes.registration + 15 * 60)
            let refused = try await backend.post("/auth/register/confirm", EmailLinkConfirmBody(token: token))
            #expect(refused.status == 410)
            try await resendRegistration(backend)
            #expect(try await linkStatuses(backend) == [.expired, .live])
        }
    }
}
