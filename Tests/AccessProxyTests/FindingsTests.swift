import AccessAPI
import AccessBackend
import AccessBackendTesting
import AccessCore
import AsyncHTTPClient
import Foundation
import Testing

@testable import AccessProxy

/// Issue 52 item 4: where a person looks — `GET /_proxy/findings`, the summary line and the JUnit file.
@Suite struct FindingsTests {
    static func findings(_ proxy: RunningProxy, headers: [(String, String)] = []) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: proxy.baseURL + "/_proxy/findings")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await plainClient.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), Data(body.readableBytesView))
    }

    /// A cooldown broken on the reference backend: the findings name the rule broken with its exchanges, count
    /// the exchanges (not the findings request itself) and hold no token.
    @Test func theFindingsEndpointSaysWhatTheTrafficProved() async throws {
        var configuration = TestBackend.configuration()
        configuration.rulePolicy = .breaking(.rateLimitCooldown)
        try await TestBackend.with(configuration: configuration) { backend in
            try await withProxy(upstream: backend.running.baseURL) { proxy in
                let through = backend.through(proxy.baseURL)
                let session = try await through.signIn()
                let id = try await RuleWatchTests.start(through)
                #expect(try await RuleWatchTests.resend(through, id).status == 202)
                await proxy.log.waitUntilSettled()
                let (status, data) = try await Self.findings(proxy)
                #expect(status == 200)
                let found = try JSONDecoder().decode(ProxyFindings.self, from: data)
                #expect(found.exchanges == 3)
                #expect(found.rules.first { $0.rule == "rate_limit.cooldown" }?.breaks == [[2, 3]])
                #expect(found.rules.count == 11)
                #expect(found.summary.hasPrefix("3 exchanges · "))
                #expect(found.summary.hasSuffix("rules: 0 kept, 1 broken, 10 not seen"))
                #expect(found.exchangesWithFindings.isSuperset(of: [2, 3]))
                let text = String(decoding: data, as: UTF8.self)
                #expect(!text.contains(session.accessToken) && !text.contains(session.refreshToken))
                #expect(proxy.log.exchanges == 3)
            }
        }
    }

    /// The findings are the proxy's own admin API: behind its admin token when it has one, gone with --no-admin.
    @Test func theFindingsKeepTheAdminRule() async throws {
        let token = "findings-token-0123456789"
        try await withProxy(upstream: "http://127.0.0.1:9", admin: .token(token)) { proxy in
            let (without, _) = try await Self.findings(proxy)
            let (with, _) = try await Self.findings(proxy, headers: [("X-Admin-Token", token)])
            #expect(without == 401)
            #expect(with == 200)
        }
        try await withProxy(upstream: "http://127.0.0.1:9", admin: .disabled) { proxy in
            let (disabled, _) = try await Self.findings(proxy)
            #expect(disabled == 404)
        }
    }

    @Test func theSummaryLineCountsAsTheIssueWritesIt() {
        let kept = RuleVerdict(rule: "a.kept", summary: "", state: .kept, kept: 2, breaks: [])
        let broken = RuleVerdict(rule: "a.broken", summary: "", state: .broken, kept: 0, breaks: [[1, 2]])
        let unseen = RuleVerdict(rule: "a.unseen", summary: "", state: .notSeen, kept: 0, breaks: [])
        let exchange = ProxyExchange(
            number: 1, method: "GET", target: "/health", status: 201, requestHeaders: [], responseHeaders: [],
            requestBody: nil, responseBody: nil)
        let contractBreak = ContractBreak(kind: .unlistedStatus, operation: "health", message: "m", exchange: exchange)
        let findings = ProxyFindings(
            exchanges: 812, contractBreaks: Array(repeating: contractBreak, count: 3),
            rules: Array(repeating: kept, count: 14) + [broken] + Array(repeating: unseen, count: 42))
        #expect(findings.summary == "812 exchanges · 3 contract breaks · rules: 14 kept, 1 broken, 42 not seen")
        #expect(findings.count == 4)
        let xml = findings.junit
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 57 + ContractBreak.Kind.allCases.count)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 2)
        #expect(xml.contains(#"<testcase classname="a" name="a.broken"><failure message="a.broken: broken (#1, #2)">"#))
        #expect(xml.components(separatedBy: "<skipped ").count - 1 == 42)
    }
}
