import AccessAPI
import AccessBackend
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessProxy

/// `--world-style`: the reference backend's worlds (`/w/NAME/...`) are separate backends with their own clocks.
/// The proxy matches their operations without the prefix and keeps each world's rule state apart.
@Suite struct WorldStyleTests {
    /// One number texted in two worlds: beta sends a code and a resend at once is refused (the rule kept); both
    /// clocks move past the cooldown; alpha sends one; beta resends its own code, rightly answered 202. Mixed into
    /// one state, alpha's send would make that resend one inside the cooldown: a false break.
    static func resendAfterAnotherWorldsSend(worldStyle: Bool) async throws -> (RuleVerdict, [ContractBreak]) {
        try await TestBackend.with { backend in
            var configuration = AccessProxy.Configuration(
                upstream: try AccessProxy.upstream(backend.running.baseURL))
            configuration.worldStyle = worldStyle
            let proxy = try await AccessProxy.start(configuration)
            do {
                let alpha = backend.through(proxy.baseURL + "/w/alpha")
                let beta = backend.through(proxy.baseURL + "/w/beta")
                let id = try await RuleWatchTests.start(beta)
                // Inside beta's own cooldown: refused, the rule kept once.
                #expect(try await RuleWatchTests.resend(beta, id).status == 429)
                _ = try await beta.advance(seconds: SendLimits.cooldown + 2)
                _ = try await alpha.advance(seconds: SendLimits.cooldown + 2)
                _ = try await RuleWatchTests.start(alpha)
                #expect(try await RuleWatchTests.resend(beta, id).status == 202)
                await proxy.log.waitUntilSettled()
                let verdict = try #require(proxy.log.verdicts.first { $0.rule == Rule.rateLimitCooldown.rawValue })
                let breaks = proxy.log.contractBreaks
                await proxy.shutdown()
                return (verdict, breaks)
            } catch {
                await proxy.shutdown()
                throw error
            }
        }
    }

    @Test func eachWorldKeepsItsOwnRuleStateAndItsOperationsMatch() async throws {
        let (verdict, breaks) = try await Self.resendAfterAnotherWorldsSend(worldStyle: true)
        #expect(verdict.state == .kept)
        #expect(verdict.kept == 1)
        #expect(verdict.breaks.isEmpty)
        #expect(breaks.map(\.line) == [])
    }

    /// Without the flag the upstream is taken to serve the contract at its root: `/w/NAME/...` is no operation of it,
    /// so no rule sees those exchanges and each is an unknown operation.
    @Test func withoutItTheWorldsPathsAreNoOperations() async throws {
        let (verdict, breaks) = try await Self.resendAfterAnotherWorldsSend(worldStyle: false)
        #expect(verdict.state == .notSeen)
        #expect(!breaks.isEmpty && breaks.allSatisfy { $0.kind == .unknownOperation })
    }

    @Test func thePrefixIsAWorldOnlyWhenItNamesOne() {
        #expect(WorldStyle.split("/w/alpha/auth/sign-in/code") == ("alpha", "/auth/sign-in/code"))
        #expect(WorldStyle.split("/auth/sign-in/code") == (nil, "/auth/sign-in/code"))
        #expect(WorldStyle.split("/w/alpha") == (nil, "/w/alpha"))
    }
}
