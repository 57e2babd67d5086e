import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import AccessBackend

/// Issue 46 item 4: the services take each rule decision from one injected policy. Production's keeps every rule;
/// conform's self-tests break one, everywhere or on named operations only.
@Suite struct RulePolicyTests {
    /// `body` as if inside a request for `method path` to a world with `policy` (the contract scope the routes
    /// open).
    static func inRequest<T>(
        _ method: HTTPRequest.Method, _ path: String, policy: RulePolicy, _ body: () -> T
    ) -> T {
        let head = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: path)
        let scope = ContractScope(
            request: Request(head: head, body: .init(buffer: ByteBuffer())), decision: Decision(), policy: policy)
        return ContractScope.$current.withValue(scope) { body() }
    }

    @Test func productionsPolicyKeepsEveryRuleInAndOutOfARequest() {
        for rule in Rule.allCases {
            #expect(RulePolicy.current.enforces(rule), "\(rule.rawValue)")
            #expect(
                Self.inRequest(.post, "/auth/phone/resend-otp", policy: .everyRule) {
                    RulePolicy.current.enforces(rule)
                })
        }
    }

    /// Outside a request there is no world, so production's policy answers whatever a test configured.
    @Test func aRuleBrokenEverywhereIsBrokenInTheWorldsRequestsAndNoOtherIs() {
        let policy = RulePolicy.breaking(.rateLimitCooldown, .linkExpired)
        for rule in Rule.allCases {
            let kept = rule != .rateLimitCooldown && rule != .linkExpired
            #expect(policy.enforces(rule) == kept, "\(rule.rawValue)")
            #expect(
                Self.inRequest(.post, "/auth/sign-in/code", policy: policy) { RulePolicy.current.enforces(rule) }
                    == kept)
            #expect(RulePolicy.current.enforces(rule))
        }
    }

    /// One promise broken alone (issue 46, conform's promise): that rule's other decisions, its refusals and every
    /// other rule stay kept; a break of the whole rule breaks each of its promises too.
    @Test func aPromiseBrokenAloneLeavesTheRestOfItsRuleKept() {
        let policy = RulePolicy.breaking(.passwordReset, only: .refreshTokensEnd)
        Self.inRequest(.post, "/auth/password/reset/complete", policy: policy) {
            #expect(!RulePolicy.current.enforces(.passwordReset, .refreshTokensEnd))
            #expect(RulePolicy.current.enforces(.passwordReset))
            #expect(RulePolicy.current.enforces(.passwordReset, .limitedStaysLimited))
            #expect(RulePolicy.current.enforces(.twoFactorPassed, .refreshTokensEnd))
        }
        Self.inRequest(.post, "/auth/password/reset/complete", policy: .breaking(.passwordReset)) {
            #expect(!RulePolicy.current.enforces(.passwordReset, .refreshTokensEnd))
        }
        Self.inRequest(.post, "/auth/password/reset/complete", policy: .everyRule) {
            #expect(RulePolicy.current.enforces(.passwordReset, .refreshTokensEnd))
        }
    }

    /// Broken on named roads only: kept on every other operation, and wherever the operation is not known (the
    /// request gate decides before one is chosen).
    @Test func aRuleBrokenOnAnOperationIsKeptOnEveryOther() {
        let policy = RulePolicy.breaking(.rateLimitCooldown, on: [.resendOtp, .signOutSession])
        func enforces(_ method: HTTPRequest.Method, _ path: String, _ rule: Rule = .rateLimitCooldown) -> Bool {
            Self.inRequest(method, path, policy: policy) { RulePolicy.current.enforces(rule) }
        }
        #expect(!enforces(.post, "/auth/phone/resend-otp"))
        #expect(enforces(.post, "/auth/phone/resend-otp", .rateLimitDailyCap))
        #expect(enforces(.post, "/auth/sign-in/code/resend"))
        // A path parameter matches any segment; another method on the same path is another operation.
        #expect(!enforces(.delete, "/me/sessions/ses_123"))
        #expect(enforces(.get, "/me/sessions"))
        #expect(enforces(.post, "/no/such/operation"))
        #expect(policy.enforces(.rateLimitCooldown))
    }

    /// Over HTTP: a cooldown broken on the phone code's resend lets a change-phone resend through at once, while
    /// the sign-in code's resend, the same rule on another road, still waits.
    @Test func aBackendWithACooldownBrokenOnOneRoadKeepsItOnTheOthers() async throws {
        var configuration = TestBackend.configuration()
        configuration.rulePolicy = .breaking(.rateLimitCooldown, on: [.resendOtp])
        try await TestBackend.with(configuration: configuration) { backend in
            let token = try await backend.signIn().accessToken
            let asked: OTPRequestAccepted = try await backend.requestOTP("+995511200300", .addPhone, token: token)
                .decode()
            let resent = try await backend.post(
                "/auth/phone/resend-otp", OTPRequestRef(requestId: asked.requestId), token: token)
            #expect(resent.status == 202)
            let started: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511123456").decode()
            let refused = try await backend.post(
                "/auth/sign-in/code/resend", SignInChallengeRef(challengeId: started.challengeId))
            #expect(refused.status == 429)
            #expect(refused.error?.limit == "cooldown")
        }
    }

    /// The same server with production's policy refuses the change-phone resend: the policy was what let it go.
    @Test func theSameResendWaitsUnderProductionsPolicy() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let asked: OTPRequestAccepted = try await backend.requestOTP("+995511200300", .addPhone, token: token)
                .decode()
            let resent = try await backend.post(
                "/auth/phone/resend-otp", OTPRequestRef(requestId: asked.requestId), token: token)
            #expect(resent.status == 429)
            #expect(resent.error?.limit == "cooldown")
        }
    }
}

extension RulePolicyTests {
    /// The decisions ask the policy by the rule's name: no service keeps a set of rules to skip of its own.
    @Test func noPartOfTheBackendBranchesOnASetOfRules() throws {
        for (path, text) in try RuleCatalogueTests.backendSources() {
            #expect(!text.contains("Set<Rule>"), "\(path) holds a set of rules: ask `RulePolicy.current` instead")
        }
    }
}
