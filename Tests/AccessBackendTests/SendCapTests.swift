import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Caps across destinations (issue 25, defect 2): besides the limits per phone and per address, at most
/// 30 texts and emails an hour for one client address, 10 for one signed-in account and 300 for the whole
/// server, each refused with its own 429 `limit`, on a moved clock.
@Suite struct SendCapTests {
    private func expectLimited(_ reply: Reply, limit: String, retryAfter: Int) {
        #expect(reply.status == 429)
        #expect(reply.error?.code == "rate_limited")
        #expect(reply.error?.limit == limit)
        #expect(reply.error?.retryAfter == retryAfter)
        #expect(reply.headers["Retry-After"].first == String(retryAfter))
    }

    private func lastRule(_ backend: TestBackend, _ path: String) async throws -> String? {
        try await backend.get("/_admin/journal").decode([JournalEntry].self).last { $0.path == path }?.rule
    }

    private func signInCode(_ backend: TestBackend, phone: String, from address: String) async throws -> RawHTTP.Answer
    {
        let body = try APIJSON.makeContractEncoder().encode(
            StartSignInBody(channel: .phone, phone: phone, device: SignInCodeTests.device))
        return try await FromAddress.post(
            port: backend.running.port, from: address, path: "/auth/sign-in/code", json: body)
    }

    private func error(_ answer: RawHTTP.Answer) -> ErrorView? {
        (try? APIJSON.makeContractDecoder().decode(APIErrorBody.self, from: answer.body)).map { ErrorView($0.error) }
    }

    @Test func oneClientAddressGetsThirtyTextsAndEmailsAnHour() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { backend in
            // Texts and emails to thirty different destinations, a recovery request among them.
            for n in 0..<20 {
                #expect(try await SignInCodeTests.start(backend, phone: .georgian(n)).status == 202)
            }
            for n in 0..<9 {
                #expect(try await SignInCodeTests.start(backend, email: "person\(n)@mail.com").status == 202)
            }
            #expect(try await RecoveryTests.start(backend).status == 202)
            expectLimited(
                try await SignInCodeTests.start(backend, phone: .georgian(100)), limit: "client_address_hourly",
                retryAfter: 3600)
            #expect(try await lastRule(backend, "/auth/sign-in/code") == "rate_limit.client_address_hourly")
            // A recovery email is refused alike, whether or not the address has an account.
            for address in [RecoveryTests.email, "nobody@mail.com"] {
                expectLimited(
                    try await backend.post(
                        "/auth/recovery/start", RecoveryStartBody(email: address, device: SignInCodeTests.device)),
                    limit: "client_address_hourly", retryAfter: 3600)
            }
            _ = try await backend.advance(seconds: 3599)
            expectLimited(
                try await SignInCodeTests.start(backend, phone: .georgian(100)), limit: "client_address_hourly",
                retryAfter: 1)
            // Another client address is not held back.
            #expect(try await signInCode(backend, phone: .georgian(101), from: "127.0.0.2").status == 202)
            _ = try await backend.advance(seconds: 1)
            #expect(try await SignInCodeTests.start(backend, phone: .georgian(100)).status == 202)
        }
    }

    @Test func oneAccountGetsTenTextsAndEmailsAnHour() async throws {
        try await TestBackend.with { backend in
            var token = try await backend.signIn().accessToken
            for n in 0..<10 {
                #expect(try await backend.requestOTP(.georgian(n), .addPhone, token: token).status == 202)
            }
            expectLimited(
                try await backend.requestOTP(.georgian(100), .addPhone, token: token), limit: "account_hourly",
                retryAfter: 3600)
            #expect(try await lastRule(backend, "/auth/phone/request-otp") == "rate_limit.account_hourly")
            // Emails count with texts.
            expectLimited(
                try await backend.send(.POST, "/auth/reauth/email", token: token), limit: "account_hourly",
                retryAfter: 3600)
            // Another account on the same client address still can.
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511200300").decode()
            let code = try await backend.lastCode(to: "+995511200300")
            let other: SignedIn = try await SignInCodeTests.verify(backend, challenge.challengeId, code).decode()
            #expect(
                try await backend.requestOTP(.georgian(101), .changePhone, token: other.session.accessToken).status
                    == 202)
            _ = try await backend.advance(seconds: 3599)
            expectLimited(
                try await backend.requestOTP(.georgian(100), .addPhone, token: token), limit: "account_hourly",
                retryAfter: 1)
            _ = try await backend.advance(seconds: 1)
            token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP(.georgian(100), .addPhone, token: token).status == 202)
        }
    }

    @Test func theWholeServerSendsThreeHundredAnHour() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            // Ten clients, each within its own thirty.
            for client in 0..<10 {
                for n in 0..<30 {
                    let answer = try await signInCode(
                        backend, phone: .georgian(client * 100 + n), from: "127.0.0.\(client + 10)")
                    #expect(answer.status == 202, "client \(client), send \(n): \(answer.head)")
                }
            }
            let refused = try await signInCode(backend, phone: .georgian(5000), from: "127.0.0.50")
            #expect(refused.status == 429)
            #expect(error(refused)?.limit == "global_hourly")
            #expect(error(refused)?.retryAfter == 3600)
            #expect(refused.header("Retry-After") == "3600")
            #expect(try await lastRule(backend, "/auth/sign-in/code") == "rate_limit.global_hourly")
            _ = try await backend.advance(seconds: 3599)
            let still = try await signInCode(backend, phone: .georgian(5000), from: "127.0.0.50")
            #expect(still.status == 429)
            #expect(error(still)?.limit == "global_hourly")
            #expect(error(still)?.retryAfter == 1)
            _ = try await backend.advance(seconds: 1)
            #expect(try await signInCode(backend, phone: .georgian(5000), from: "127.0.0.50").status == 202)
        }
    }
}
