import AccessBackend
import AccessConform
import AccessCore
import Foundation
import Testing

/// Issue 46 item 3: a rule knows its roads, and conform checks it on each, one verdict per rule and operation.
@Suite struct RoadTests {
    @Test func everyRuleButOkHasOneCheck() {
        let rules = Catalogue.checks.map(\.rule)
        let repeated = Dictionary(grouping: rules, by: { $0 }).filter { $0.value.count > 1 }.keys.map(\.rawValue)
        #expect(repeated.isEmpty, "rules with more than one check: \(repeated.sorted())")
        let missing = Set(Rule.allCases).subtracting(rules).subtracting([.ok]).map(\.rawValue)
        #expect(missing.isEmpty, "rules without a check: \(missing.sorted())")
    }

    /// A check written for one road would say "kept" for the others without looking at them.
    @Test func aRuleWithSeveralRoadsIsCheckedOnEach() {
        let oneRoadOnly = Catalogue.checks.filter { $0.operations.count > 1 && !$0.takesTheRoad }.map(\.rule.rawValue)
        #expect(oneRoadOnly.isEmpty, "checked on one road of several: \(oneRoadOnly.sorted())")
    }

    /// One verdict per rule and road, named as the report names them.
    @Test func aRunGivesOneVerdictPerRuleAndRoad() async throws {
        let run = try await conform(Selection(only: ["rate_limit.cooldown", "session.logout", "http.not_found"]))
        let names = run.results.map(\.name)
        let cooldown = Rule.rateLimitCooldown.operations.map { "rate_limit.cooldown \($0.name)" }
        #expect(Set(names) == Set(cooldown + ["session.logout /auth/logout", "http.not_found"]))
        #expect(names.count == cooldown.count + 2)
        #expect(names.contains("rate_limit.cooldown /auth/phone/resend-otp"))
        for result in run.results { #expect(result.verdict == .kept, "\(result.name): \(result.verdict)") }
        let text = ConformReport.text(run)
        #expect(text.contains("rate_limit.cooldown /auth/phone/resend-otp"))
        #expect(ConformReport.junit(run).contains(#"name="rate_limit.cooldown /auth/phone/resend-otp""#))
        // One road alone, as the report names it.
        let one = try await conform(Selection(only: ["rate_limit.cooldown /auth/phone/resend-otp"]))
        #expect(one.results.map(\.name) == ["rate_limit.cooldown /auth/phone/resend-otp"])
        #expect(Selection(only: ["rate_limit.cooldown /no/such/road"]).unknownNames.count == 1)
    }

    /// The issue's escape: a backend whose change-phone resend ignores every limit. The cooldown and the resend
    /// window were checked on the sign-in resend only, so it passed; each limit now says BROKEN on that road and
    /// kept on the others.
    @Test func aChangePhoneResendThatIgnoresTheLimitsIsCaughtOnItsRoad() async throws {
        for rule in [Rule.rateLimitCooldown, .rateLimitResendWindow, .rateLimitDailyCap] {
            let run = try await conform(
                Selection(only: [rule.rawValue]), policy: .breaking(rule, on: [.resendOtp]))
            for result in run.results {
                if result.operation == .resendOtp {
                    guard case .broken = result.verdict else {
                        Issue.record("\(result.name): \(result.verdict)")
                        continue
                    }
                } else {
                    #expect(result.verdict == .kept, "\(result.name): \(result.verdict)")
                }
            }
        }
    }
}

/// One rule on one road (or on none, for the rules of the request itself and of faults).
struct Road: Sendable, Hashable, CustomTestStringConvertible {
    var rule: Rule
    var operation: ContractOperation?

    var name: String { operation.map { "\(rule.rawValue) \($0.name)" } ?? rule.rawValue }
    var testDescription: String { name }

    /// Every rule and road the catalogue checks.
    static let all: [Road] = Catalogue.checks.flatMap { check in
        check.operations.isEmpty
            ? [Road(rule: check.rule)] : check.operations.map { Road(rule: check.rule, operation: $0) }
    }

    /// Rules no rule policy can break on the reference backend: no request provokes them honestly (their checks
    /// say skipped, why, everywhere), or they are the request's own framing, which the gateway or the router
    /// answers before any operation runs (`ConformTests.aRuleAFaultAnswersForIsReportedBroken` shows those checks catch a fault answering instead).
    static let unbreakable: Set<Rule> = ConformTests.unprovokable.union([
        .httpBadRequest, .httpUnsupportedMediaType, .httpPayloadTooLarge, .httpNotFound, .httpMethodNotAllowed,
    ])
}

/// Issue 46: for every rule and road, the reference backend with a rule policy that breaks that rule on that
/// road alone, and conform saying BROKEN there. The same backend with production's policy keeps them all
/// (`ConformTests.everyCheckedRuleIsKeptByTheReferenceBackend`).
@Suite struct PolicyBreaksTests {
    static let adminToken = "conform-admin-token-0123456789"

    @Test(arguments: Road.all.filter { !Road.unbreakable.contains($0.rule) })
    func aRuleBrokenOnOneRoadIsReportedBrokenThere(_ road: Road) async throws {
        let run = try await conform(
            Selection(only: [road.name]), policy: .breaking(road.rule, on: road.operation.map { [$0] }),
            adminToken: road.rule == .adminUnauthorized ? Self.adminToken : nil)
        #expect(run.results.map(\.name) == [road.name])
        guard case .broken(let expected, let got, _) = run.results.first?.verdict else {
            Issue.record("\(road.name): \(String(describing: run.results.first?.verdict))")
            return
        }
        #expect(!expected.isEmpty && !got.isEmpty)
    }
}
