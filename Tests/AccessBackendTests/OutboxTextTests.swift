import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

/// Issue 49 item 4: the outbox as the customer got it. Every message carries its text (an email its subject too),
/// numbers from the rules' constants; a send a limit refused is a row of its own (`send_refused`), with which limit
/// and until when, and never a code or link. Both sides of each send limit, on the moved clock.
@Suite struct OutboxTextTests {
    static let phone = "+995511100000"

    static func now(_ backend: TestBackend) async throws -> Date {
        let clock: ClockState = try await backend.get("/_admin/clock").decode()
        return clock.now
    }

    static func refused(_ backend: TestBackend) async throws -> [OutboxMessage] {
        try await backend.outbox().filter { $0.kind == "send_refused" }
    }

    /// A refused row holds nothing to use, and says the 429's message.
    static func expectNothingToUse(_ row: OutboxMessage, shown reply: Reply) {
        #expect(row.code == nil && row.link == nil && row.token == nil)
        #expect(row.subject == nil)
        #expect(row.text == reply.error?.message)
        #expect(row.status == .live)
    }

    // MARK: - Refused sends, both sides of each limit

    @Test func aResendInsideTheCooldownIsARefusedRowAndOneAfterItIsACode() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: Self.phone).decode()
            _ = try await backend.advance(seconds: SendLimits.cooldown - 1)
            let early = try await backend.post(
                "/auth/sign-in/code/resend", SignInChallengeRef(challengeId: challenge.challengeId))
            #expect(early.status == 429)
            let now = try await Self.now(backend)
            let rows = try await Self.refused(backend)
            #expect(rows.count == 1)
            let row = try #require(rows.first)
            #expect(row.channel == "sms" && row.to == Self.phone && row.purpose == "sign_in")
            #expect(row.limit == .cooldown)
            #expect(row.retryAt == now.addingTimeInterval(1))
            #expect(row.sentAt == now)
            Self.expectNothingToUse(row, shown: early)
            // Its refused rollback sent nothing: the only code is the first one.
            #expect(try await backend.outbox().filter { $0.kind == "otp" }.count == 1)

            _ = try await backend.advance(seconds: 1)
            let onTime = try await backend.post(
                "/auth/sign-in/code/resend", SignInChallengeRef(challengeId: challenge.challengeId))
            #expect(onTime.status == 202)
            #expect(try await Self.refused(backend).count == 1)
            #expect(try await backend.outbox().last?.kind == "otp")
        }
    }

    @Test func theFourthResendInTheWindowIsARefusedRowUntilTheFirstLeavesIt() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let first: OTPRequestAccepted = try await backend.requestOTP("+995511200300", .addPhone, token: token)
                .decode()
            func resend() async throws -> Reply {
                try await backend.post(
                    "/auth/phone/resend-otp", OTPRequestRef(requestId: first.requestId), token: token)
            }
            for _ in 0..<SendLimits.maxResendsPerWindow {
                _ = try await backend.advance(seconds: SendLimits.cooldown)
                #expect(try await resend().status == 202)
            }
            #expect(try await Self.refused(backend).isEmpty)
            _ = try await backend.advance(seconds: SendLimits.cooldown)
            let refused = try await resend()
            #expect(refused.status == 429)
            let wait = try #require(refused.error?.retryAfter)
            let row = try #require(try await Self.refused(backend).last)
            #expect(row.limit == .resendWindow && row.purpose == "add_phone" && row.to == "+995511200300")
            #expect(row.retryAt == (try await Self.now(backend)).addingTimeInterval(TimeInterval(wait)))
            Self.expectNothingToUse(row, shown: refused)

            _ = try await backend.advance(seconds: TimeInterval(wait))
            #expect(try await resend().status == 202)
            #expect(try await Self.refused(backend).count == 1)
        }
    }

    @Test func theSixthCodeOfTheDayIsARefusedRowUntilTheFirstLeavesTheDay() async throws {
        try await TestBackend.with { backend in
            var token = ""
            // An hour apart: every code has expired before the next, so none is a resend.
            for _ in 0..<SendLimits.maxCodesPerDay {
                token = try await backend.signIn().accessToken
                #expect(try await backend.requestOTP("+995511200300", .addPhone, token: token).status == 202)
                _ = try await backend.advance(seconds: 3600)
            }
            token = try await backend.signIn().accessToken
            let refused = try await backend.requestOTP("+995511200300", .addPhone, token: token)
            #expect(refused.status == 429)
            let row = try #require(try await Self.refused(backend).last)
            #expect(row.limit == .dailyCap)
            let wait = try #require(refused.error?.retryAfter)
            #expect(row.retryAt == (try await Self.now(backend)).addingTimeInterval(TimeInterval(wait)))
            Self.expectNothingToUse(row, shown: refused)

            _ = try await backend.advance(seconds: TimeInterval(wait))
            token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP("+995511200300", .addPhone, token: token).status == 202)
            #expect(try await Self.refused(backend).count == 1)
        }
    }

    // MARK: - The hourly caps across destinations, both sides

    @Test func theSendPastOneClientAddressesHourlyCapIsARefusedRowUntilTheHourEnds() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            for n in 0..<SendLimits.maxSendsPerClientAddress {
                #expect(try await SignInCodeTests.start(backend, phone: .georgian(n)).status == 202)
            }
            #expect(try await Self.refused(backend).isEmpty)
            let refused = try await SignInCodeTests.start(backend, phone: .georgian(100))
            #expect(refused.status == 429)
            let row = try #require(try await Self.refused(backend).last)
            #expect(row.limit == .clientAddressHourly)
            #expect(row.channel == "sms" && row.to == String.georgian(100) && row.purpose == "sign_in")
            let wait = try #require(refused.error?.retryAfter)
            #expect(row.retryAt == (try await Self.now(backend)).addingTimeInterval(TimeInterval(wait)))
            Self.expectNothingToUse(row, shown: refused)

            _ = try await backend.advance(seconds: TimeInterval(wait))
            #expect(try await SignInCodeTests.start(backend, phone: .georgian(100)).status == 202)
            #expect(try await Self.refused(backend).count == 1)
        }
    }

    @Test func theSendPastOneAccountsHourlyCapIsARefusedRowUntilTheHourEnds() async throws {
        try await TestBackend.with { backend in
            var token = try await backend.signIn().accessToken
            for n in 0..<SendLimits.maxSendsPerAccount {
                #expect(try await backend.requestOTP(.georgian(n), .addPhone, token: token).status == 202)
            }
            #expect(try await Self.refused(backend).isEmpty)
            let refused = try await backend.requestOTP(.georgian(100), .addPhone, token: token)
            #expect(refused.status == 429)
            let row = try #require(try await Self.refused(backend).last)
            #expect(row.limit == .accountHourly)
            #expect(row.channel == "sms" && row.to == String.georgian(100) && row.purpose == "add_phone")
            let wait = try #require(refused.error?.retryAfter)
            #expect(row.retryAt == (try await Self.now(backend)).addingTimeInterval(TimeInterval(wait)))
            Self.expectNothingToUse(row, shown: refused)

            _ = try await backend.advance(seconds: TimeInterval(wait))
            token = try await backend.signIn().accessToken
            #expect(try await backend.requestOTP(.georgian(100), .addPhone, token: token).status == 202)
            #expect(try await Self.refused(backend).count == 1)
        }
    }

    @Test func theSendPastTheServersHourlyCapIsARefusedRowUntilTheHourEnds() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let body = { (phone: String) in
                try APIJSON.makeContractEncoder().encode(
                    StartSignInBody(channel: .phone, phone: phone, device: SignInCodeTests.device))
            }
            func send(_ phone: String, from address: String) async throws -> RawHTTP.Answer {
                try await FromAddress.post(
                    port: backend.running.port, from: address, path: "/auth/sign-in/code", json: try body(phone))
            }
            // From enough client addresses that none reaches its own cap first.
            let perClient = SendLimits.maxSendsPerClientAddress
            for n in 0..<SendLimits.maxSendsPerHour {
                let answer = try await send(.georgian(n), from: "127.0.0.\(n / perClient + 10)")
                #expect(answer.status == 202, "send \(n): \(answer.head)")
            }
            #expect(try await Self.refused(backend).isEmpty)
            let refused = try await send(.georgian(5000), from: "127.0.0.250")
            #expect(refused.status == 429)
            let error = try APIJSON.makeContractDecoder().decode(APIErrorBody.self, from: refused.body).error
            let row = try #require(try await Self.refused(backend).last)
            #expect(row.limit == .globalHourly)
            #expect(row.channel == "sms" && row.to == String.georgian(5000) && row.purpose == "sign_in")
            let wait = try #require(error.retryAfter)
            #expect(row.retryAt == (try await Self.now(backend)).addingTimeInterval(TimeInterval(wait)))
            #expect(row.code == nil && row.link == nil && row.token == nil)
            #expect(row.text == error.message)

            _ = try await backend.advance(seconds: TimeInterval(wait))
            #expect(try await send(.georgian(5000), from: "127.0.0.250").status == 202)
            #expect(try await Self.refused(backend).count == 1)
        }
    }

    @Test func aVerifyItsYouEmailInsideTheCooldownIsARefusedEmailRow() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            _ = try await backend.advance(seconds: SendLimits.cooldown - 1)
            let early = try await backend.send(.POST, "/auth/reauth/email", token: token)
            #expect(early.status == 429)
            let row = try #require(try await Self.refused(backend).last)
            #expect(row.channel == "email" && row.purpose == "reauth" && row.limit == .cooldown)
            Self.expectNothingToUse(row, shown: early)
            // The refusal's event names the same limit (one transaction wrote both).
            let timeline: Timeline = try await backend.get(
                "/_admin/timeline?user=\(row.to)&kinds=send_refused"
            ).decode()
            #expect(timeline.events.map { $0.detail.additionalProperties["limit"] } == ["cooldown"])

            _ = try await backend.advance(seconds: 1)
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            #expect(try await Self.refused(backend).count == 1)
        }
    }

    @Test func aRecoveryEmailInsideItsCooldownIsARefusedRowForAKnownAndAnUnknownAddressAlike() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            for address in [RecoveryTests.email, "nobody@mail.com"] {
                #expect(try await RecoveryTests.start(backend, address).status == 202)
            }
            _ = try await backend.advance(seconds: SendLimits.cooldown - 1)
            for address in [RecoveryTests.email, "nobody@mail.com"] {
                let early = try await RecoveryTests.start(backend, address)
                #expect(early.status == 429)
                let row = try #require(try await Self.refused(backend).last)
                #expect(row.to == address && row.purpose == "recovery" && row.limit == .cooldown)
                Self.expectNothingToUse(row, shown: early)
            }
            _ = try await backend.advance(seconds: 1)
            #expect(try await RecoveryTests.start(backend).status == 202)
            #expect(try await Self.refused(backend).count == 2)
        }
    }

    // MARK: - The full texts

    @Test func aTextedCodeSaysItsCodeAndItsLifetime() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            #expect(try await SignInCodeTests.start(backend, phone: Self.phone).status == 202)
            let sms = try #require(try await backend.outbox().last)
            let code = try #require(sms.code)
            #expect(sms.subject == nil)
            #expect(
                sms.text
                    == "\(ProductBrand.name): \(code) is your \(ProductBrand.name) sign-in code. It expires in "
                    + "\(RuleText.duration(CodeRules.lifetime)). Don't share it with anyone.")
        }
    }

    @Test func aVerifyItsYouEmailHasASubjectItsLinkAndHowLongTheLinkWorks() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
            let mail = try #require(try await backend.outbox().last)
            let link = try #require(mail.link)
            #expect(mail.subject == "Verify it's you")
            #expect(mail.text.contains(link))
            #expect(mail.text.contains("It works once, for \(RuleText.duration(LinkLifetimes.reauth))."))
        }
    }

    @Test func aRecoveryLinkSaysItWorksForItsDayAndTheTextSaysItWasAsked() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            #expect(try await RecoveryTests.start(backend).status == 202)
            let mail = try #require(try await backend.outbox().last { $0.kind == "recovery_link" })
            #expect(mail.subject == "Recover your \(ProductBrand.name) account")
            #expect(mail.text.contains(try #require(mail.link)))
            #expect(mail.text.contains("for \(RuleText.duration(LinkLifetimes.recovery))."))
            let notice = try #require(try await backend.outbox().last { $0.kind == "recovery_started_notice" })
            #expect(notice.channel == "sms" && notice.subject == nil)
            #expect(notice.text.contains("someone asked to recover your account by email"))
        }
    }

    @Test func aPasswordResetLinkSaysItsLifetime() async throws {
        try await TestBackend.with { backend in
            #expect(try await PasswordResetTests.request(backend).status == 202)
            let mail = try #require(try await backend.outbox().last { $0.kind == "password_reset_link" })
            #expect(mail.subject == "Reset your \(ProductBrand.name) password")
            #expect(mail.text.contains(try #require(mail.link)))
            #expect(mail.text.contains("for \(RuleText.duration(LinkLifetimes.passwordReset))."))
        }
    }

    /// Every message the outbox lists has words: none is the empty string the contract's required `text` forbids
    /// in meaning, whatever road sent it.
    @Test func everyMessageOfABusyWorldHasItsText() async throws {
        try await TestBackend.with(scenario: "recovery-ready") { (backend: TestBackend) async throws in
            _ = try await RecoveryTests.start(backend)
            _ = try await RecoveryTests.start(backend)
            _ = try await PasswordResetTests.request(backend)
            let messages = try await backend.outbox()
            #expect(messages.count >= 3)
            for message in messages {
                #expect(!message.text.isEmpty, "\(message.kind)")
                #expect((message.subject != nil) == (message.channel == "email" && message.kind != "send_refused"))
            }
        }
    }
}
