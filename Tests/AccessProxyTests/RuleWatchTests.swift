import AccessAPI
import AccessBackend
import AccessBackendTesting
import AccessCore
import AccessProxy
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// Issue 52 item 3: the rules watched from the traffic. Each rule both ways against the reference backend through
/// the proxy: kept traffic is kept and no finding; with the rule broken through the test policy (`RulePolicy`),
/// broken, with the exchanges that prove it. Where the policy cannot make a backend accept what a rule refuses
/// (it answers such a request 400), a double behind our own front door accepts it (`ClockedDouble`).
@Suite struct RuleWatchTests {
    /// The reference backend seen through a proxy.
    struct Drive {
        let backend: TestBackend
        let proxy: RunningProxy

        /// The number of the exchange just answered (a test sends one request at a time).
        func last() async -> Int {
            await proxy.log.waitUntilSettled()
            return proxy.log.exchanges
        }
    }

    /// The verdict on `rule` after `drive` ran against a reference backend with `policy` through a proxy.
    static func verdict(
        _ rule: Rule, scenario: String = "default", policy: RulePolicy = .everyRule,
        _ drive: (Drive) async throws -> [Int]
    ) async throws -> (verdict: RuleVerdict, proof: [Int], all: [RuleVerdict]) {
        var configuration = TestBackend.configuration(scenario: scenario)
        configuration.rulePolicy = policy
        return try await TestBackend.with(configuration: configuration) { backend in
            try await withProxy(upstream: backend.running.baseURL) { proxy in
                let proof = try await drive(Drive(backend: backend.through(proxy.baseURL), proxy: proxy))
                await proxy.log.waitUntilSettled()
                let all = proxy.log.verdicts
                let verdict = try #require(all.first { $0.rule == rule.rawValue })
                return (verdict, proof, all)
            }
        }
    }

    static func expectKept(_ found: (verdict: RuleVerdict, proof: [Int], all: [RuleVerdict]), times: Int = 1) {
        #expect(found.verdict.state == .kept)
        #expect(found.verdict.kept == times)
        #expect(found.verdict.breaks.isEmpty)
        #expect(found.all.allSatisfy { $0.state != .broken }, "\(found.all.filter { $0.state == .broken })")
    }

    static func expectBroken(_ found: (verdict: RuleVerdict, proof: [Int], all: [RuleVerdict])) {
        #expect(found.verdict.state == .broken)
        #expect(found.verdict.breaks == [found.proof])
    }

    static let device = DeviceInfo(
        deviceName: "Terminal on test", systemName: "Linux", systemVersion: "6.1", identifier: "dev_test_1",
        publicKey: Data(repeating: 7, count: 32).base64EncodedString())
    static let phone = "+995511123456"

    static func start(_ backend: TestBackend) async throws -> String {
        let started: SignInChallenge = try await backend.post(
            "/auth/sign-in/code", StartSignInBody(channel: .phone, phone: phone, device: device)
        ).decode()
        return started.challengeId
    }

    static func verify(_ backend: TestBackend, _ id: String, _ code: String) async throws -> Reply {
        try await backend.post(
            "/auth/sign-in/code/verify", VerifySignInCodeBody(challengeId: id, code: code, device: device))
    }

    static func resend(_ backend: TestBackend, _ id: String) async throws -> Reply {
        try await backend.post("/auth/sign-in/code/resend", SignInChallengeRef(challengeId: id))
    }

    // MARK: otp.expired

    static func lateCode(_ drive: Drive, accepted: Bool) async throws -> [Int] {
        let id = try await start(drive.backend)
        let sent = await drive.last()
        let code = try await drive.backend.lastCode(to: phone)
        _ = try await drive.backend.advance(seconds: CodeRules.lifetime + 1)
        #expect(try await verify(drive.backend, id, code).status == (accepted ? 200 : 410))
        return [sent, await drive.last()]
    }

    @Test func aCodeRefusedAfterItsLifetimeKeepsTheRule() async throws {
        Self.expectKept(try await Self.verdict(.otpExpired) { try await Self.lateCode($0, accepted: false) })
    }

    @Test func aCodeAcceptedAfterItsLifetimeBreaksTheRule() async throws {
        Self.expectBroken(
            try await Self.verdict(.otpExpired, policy: .breaking(.otpExpired)) {
                try await Self.lateCode($0, accepted: true)
            })
    }

    // MARK: signin.code_incorrect_exhausted

    /// A backend that lets a code live past its wrong tries answers the last of them as it answers no code (the
    /// test policy's 400), not 401 `code_incorrect`: a wrong try is any refused check of a code other than the one
    /// accepted.
    static func rightCodeAfterFiveWrong(_ drive: Drive, accepted: Bool) async throws -> [Int] {
        let id = try await start(drive.backend)
        let code = try await drive.backend.lastCode(to: phone)
        let wrong = String(code.map { $0 == "1" ? Character("2") : Character("1") })
        var tries: [Int] = []
        for attempt in 1...CodeRules.maxWrongAttempts {
            let lastTryOfALivingCode = accepted && attempt == CodeRules.maxWrongAttempts
            #expect(try await verify(drive.backend, id, wrong).status == (lastTryOfALivingCode ? 400 : 401))
            tries.append(await drive.last())
        }
        #expect(try await verify(drive.backend, id, code).status == (accepted ? 200 : 410))
        return tries + [await drive.last()]
    }

    @Test func theRightCodeRefusedAfterFiveWrongKeepsTheRule() async throws {
        Self.expectKept(
            try await Self.verdict(.signInCodeIncorrectExhausted) {
                try await Self.rightCodeAfterFiveWrong($0, accepted: false)
            })
    }

    @Test func theRightCodeAcceptedAfterFiveWrongBreaksTheRule() async throws {
        Self.expectBroken(
            try await Self.verdict(.signInCodeIncorrectExhausted, policy: .breaking(.signInCodeIncorrectExhausted)) {
                try await Self.rightCodeAfterFiveWrong($0, accepted: true)
            })
    }

    // MARK: rate_limit.cooldown

    static func resendAtOnce(_ drive: Drive, accepted: Bool) async throws -> [Int] {
        let id = try await start(drive.backend)
        let sent = await drive.last()
        #expect(try await resend(drive.backend, id).status == (accepted ? 202 : 429))
        return [sent, await drive.last()]
    }

    @Test func aResendRefusedInsideTheCooldownKeepsTheRule() async throws {
        Self.expectKept(
            try await Self.verdict(.rateLimitCooldown) { try await Self.resendAtOnce($0, accepted: false) })
    }

    @Test func aResendAnsweredInsideTheCooldownBreaksTheRule() async throws {
        Self.expectBroken(
            try await Self.verdict(.rateLimitCooldown, policy: .breaking(.rateLimitCooldown)) {
                try await Self.resendAtOnce($0, accepted: true)
            })
    }

    // MARK: rate_limit.resend_window

    static func oneResendTooMany(_ drive: Drive, accepted: Bool) async throws -> [Int] {
        let id = try await start(drive.backend)
        var resends: [Int] = []
        for _ in 1...SendLimits.maxResendsPerWindow {
            _ = try await drive.backend.advance(seconds: SendLimits.cooldown + 1)
            #expect(try await resend(drive.backend, id).status == 202)
            resends.append(await drive.last())
        }
        _ = try await drive.backend.advance(seconds: SendLimits.cooldown + 1)
        #expect(try await resend(drive.backend, id).status == (accepted ? 202 : 429))
        return resends + [await drive.last()]
    }

    @Test func aResendRefusedPastTheWindowsCapKeepsTheRule() async throws {
        let found = try await Self.verdict(.rateLimitResendWindow) {
            try await Self.oneResendTooMany($0, accepted: false)
        }
        Self.expectKept(found)
        // Each resend came after the cooldown: that rule was never put to the test.
        #expect(found.all.first { $0.rule == Rule.rateLimitCooldown.rawValue }?.state == .notSeen)
    }

    @Test func aResendAnsweredPastTheWindowsCapBreaksTheRule() async throws {
        Self.expectBroken(
            try await Self.verdict(.rateLimitResendWindow, policy: .breaking(.rateLimitResendWindow)) {
                try await Self.oneResendTooMany($0, accepted: true)
            })
    }

    // MARK: link.expired

    static func linkTwice(_ drive: Drive, accepted: Bool) async throws -> [Int] {
        let token = try await drive.backend.signIn().accessToken
        #expect(try await drive.backend.send(.POST, "/auth/reauth/email", token: token).status == 202)
        let link = try #require(try await drive.backend.outbox().last { $0.kind == "reauth_link" }?.token)
        let body = EmailLinkConfirmBody(token: link)
        #expect(try await drive.backend.post("/auth/reauth/email/confirm", body, token: token).status == 200)
        let spent = await drive.last()
        let again = try await drive.backend.post("/auth/reauth/email/confirm", body, token: token)
        #expect(again.status == (accepted ? 200 : 410))
        return [spent, await drive.last()]
    }

    @Test func aSpentLinkRefusedKeepsTheRule() async throws {
        Self.expectKept(try await Self.verdict(.linkExpired) { try await Self.linkTwice($0, accepted: false) })
    }

    @Test func aSpentLinkAcceptedBreaksTheRule() async throws {
        Self.expectBroken(
            try await Self.verdict(.linkExpired, policy: .breaking(.linkExpired)) {
                try await Self.linkTwice($0, accepted: true)
            })
    }

    // MARK: session.refresh_reused

    @Test func aReusedRefreshTokenRefusedKeepsTheRule() async throws {
        let found = try await Self.verdict(.sessionRefreshReused) { drive in
            let session = try await drive.backend.signIn()
            let body = RefreshBody(refreshToken: session.refreshToken)
            #expect(try await drive.backend.post("/auth/refresh", body).status == 200)
            // Within the reuse interval the same pair may come back: not judged.
            #expect(try await drive.backend.post("/auth/refresh", body).status == 200)
            _ = await drive.last()
            #expect(drive.proxy.log.verdicts.first { $0.rule == "session.refresh_reused" }?.state == .notSeen)
            _ = try await drive.backend.advance(seconds: RefreshRules.reuseInterval + 1)
            #expect(try await drive.backend.post("/auth/refresh", body).status == 401)
            return []
        }
        Self.expectKept(found)
    }

    /// The test policy cannot make the reference backend answer a reused token with tokens, so a double does.
    @Test func aReusedRefreshTokenAnsweredWithNewTokensBreaksTheRule() async throws {
        let double = ClockedDouble([
            "POST /auth/refresh": {
                let fresh = UUID().uuidString
                return (
                    200,
                    #"{"user_id":"usr_1","access_token":"at_\#(fresh)","refresh_token":"rt_\#(fresh)","#
                        + #""access_expires_at":"2027-01-15T10:00:00Z","refresh_expires_at":"2027-01-22T10:00:00Z"}"#
                )
            }
        ])
        try await double.with { upstream in
            try await withProxy(upstream: upstream) { proxy in
                for advance in [0, RefreshRules.reuseInterval + 1] {
                    double.advance(seconds: advance)
                    var request = HTTPClientRequest(url: proxy.baseURL + "/auth/refresh")
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.body = .bytes(.init(string: #"{"refresh_token":"rt_once"}"#))
                    _ = try await plainClient.execute(request, timeout: .seconds(30)).body.collect(upTo: 1 << 20)
                }
                await proxy.log.waitUntilSettled()
                let verdict = proxy.log.verdicts.first { $0.rule == "session.refresh_reused" }
                #expect(verdict?.state == .broken)
                #expect(verdict?.breaks == [[1, 2]])
            }
        }
    }

    // MARK: reauth.granted

    static func oldGrant(_ drive: Drive, accepted: Bool) async throws -> [Int] {
        let token = try await drive.backend.signIn().accessToken
        #expect(try await drive.backend.get("/me/auth-methods", token: token).status == 200)
        let grant = try await drive.backend.passwordGrant(token: token)
        let granted = await drive.last()
        _ = try await drive.backend.advance(seconds: ReauthRules.window + 60)
        let change = try await drive.backend.send(
            .POST, "/me/sessions/revoke-others", token: token, reauth: grant.reauthToken)
        #expect(change.status == (accepted ? 200 : 403))
        return [granted, await drive.last()]
    }

    @Test func aChangeRefusedWithAnOldGrantKeepsTheRule() async throws {
        Self.expectKept(try await Self.verdict(.reauthGranted) { try await Self.oldGrant($0, accepted: false) })
    }

    @Test func aChangeAcceptedWithAnOldGrantBreaksTheRule() async throws {
        Self.expectBroken(
            try await Self.verdict(.reauthGranted, policy: .breaking(.reauthGranted)) {
                try await Self.oldGrant($0, accepted: true)
            })
    }

    // MARK: reauth.required

    @Test func aChangeRefusedWithoutAGrantKeepsTheRule() async throws {
        Self.expectKept(
            try await Self.verdict(.reauthRequired) { drive in
                let token = try await drive.backend.signIn().accessToken
                #expect(try await drive.backend.get("/me/auth-methods", token: token).status == 200)
                #expect(try await drive.backend.send(.POST, "/me/sessions/revoke-others", token: token).status == 403)
                return []
            })
    }

    /// The test policy answers a change without a grant 400, never 200, so a double accepts it.
    @Test func aChangeAcceptedWithoutAGrantBreaksTheRule() async throws {
        let double = ClockedDouble([
            "GET /me/auth-methods": {
                (
                    200,
                    #"{"user_id":"usr_1","role":"athlete","phone":"+995511100000","email":null,"#
                        + #""has_password":true,"apple_linked":false,"google_linked":false}"#
                )
            },
            "POST /me/sessions/revoke-others": { (200, #"{"signed_out":1}"#) },
        ])
        try await double.with { upstream in
            try await withProxy(upstream: upstream) { proxy in
                for (method, path) in [("GET", "/me/auth-methods"), ("POST", "/me/sessions/revoke-others")] {
                    var request = HTTPClientRequest(url: proxy.baseURL + path)
                    request.method = .init(rawValue: method)
                    request.headers.add(name: "Authorization", value: "Bearer at_one")
                    _ = try await plainClient.execute(request, timeout: .seconds(30)).body.collect(upTo: 1 << 20)
                }
                await proxy.log.waitUntilSettled()
                let verdict = proxy.log.verdicts.first { $0.rule == "reauth.required" }
                #expect(verdict?.state == .broken)
                #expect(verdict?.breaks == [[1, 2]])
            }
        }
    }

    // MARK: disconnect.last_method

    static func disconnectTheOnlyMethod(_ drive: Drive, accepted: Bool) async throws -> [Int] {
        let token = try await drive.backend.signIn().accessToken
        #expect(try await drive.backend.get("/me/auth-methods", token: token).status == 200)
        let listed = await drive.last()
        let answer = try await drive.backend.post(
            "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token)
        #expect(answer.status == (accepted ? 200 : 409))
        return [listed, await drive.last()]
    }

    @Test func theOnlyMethodRefusedKeepsTheRule() async throws {
        Self.expectKept(
            try await Self.verdict(.disconnectLastMethod, scenario: "apple-only") {
                try await Self.disconnectTheOnlyMethod($0, accepted: false)
            })
    }

    @Test func theOnlyMethodDisconnectedBreaksTheRule() async throws {
        Self.expectBroken(
            try await Self.verdict(
                .disconnectLastMethod, scenario: "apple-only", policy: .breaking(.disconnectLastMethod)
            ) { try await Self.disconnectTheOnlyMethod($0, accepted: true) })
    }

    // MARK: delete.blocked

    static func deleteWithBlockers(_ drive: Drive, accepted: Bool) async throws -> [Int] {
        let token = try await drive.backend.signIn().accessToken
        let preflight: DeletePreflight = try await drive.backend.get("/me/delete-preflight", token: token).decode()
        #expect(!preflight.blockers.isEmpty)
        let listed = await drive.last()
        let grant = try await drive.backend.passwordGrant(token: token)
        let answer = try await drive.backend.send(.DELETE, "/me", token: token, reauth: grant.reauthToken)
        #expect(answer.status == (accepted ? 200 : 409))
        return [listed, await drive.last()]
    }

    @Test func aDeleteRefusedWithBlockersKeepsTheRule() async throws {
        Self.expectKept(
            try await Self.verdict(.deleteBlocked, scenario: "coach-sessions") {
                try await Self.deleteWithBlockers($0, accepted: false)
            })
    }

    @Test func aDeleteAcceptedWithBlockersBreaksTheRule() async throws {
        Self.expectBroken(
            try await Self.verdict(.deleteBlocked, scenario: "coach-sessions", policy: .breaking(.deleteBlocked)) {
                try await Self.deleteWithBlockers($0, accepted: true)
            })
    }

    // MARK: time and the rest

    /// The rules' time is the upstream's clock as its Date header says: the reference backend's moved clock, passed
    /// on by the proxy as the backend sent it (Hummingbird would write its own wall clock in both).
    @Test func theDateHeaderIsTheBackendsClockThroughTheProxy() async throws {
        try await TestBackend.with { backend in
            try await withProxy(upstream: backend.running.baseURL) { proxy in
                let moved = try await backend.advance(seconds: 300 * 24 * 60 * 60)
                let direct = try await backend.get("/health")
                #expect(direct.headers["Date"] == [HTTPDate.format(moved.now)])
                let through = try await backend.through(proxy.baseURL).get("/health")
                #expect(through.headers["Date"] == [HTTPDate.format(moved.now)])
            }
        }
    }

    /// Traffic that puts no rule to the test leaves every rule not seen, and the verdicts name the catalogue's
    /// rules in its words.
    @Test func trafficThatTestsNoRuleLeavesEveryRuleNotSeen() async throws {
        let found = try await Self.verdict(.otpExpired) { drive in
            let token = try await drive.backend.signIn().accessToken
            #expect(try await drive.backend.get("/me/auth-methods", token: token).status == 200)
            return []
        }
        #expect(found.all.allSatisfy { $0.state == .notSeen && $0.kept == 0 && $0.breaks.isEmpty })
        #expect(found.all.map(\.rule).count == 11)
        for verdict in found.all {
            #expect(Rule(rawValue: verdict.rule)?.summary == verdict.summary)
        }
    }
}
