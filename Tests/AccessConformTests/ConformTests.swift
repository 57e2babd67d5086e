import AccessAPI
import AccessBackend
import AccessBackendTesting
import AccessConform
import AccessCore
import Foundation
import Synchronization
import Testing

/// Issue 32: `accessdeck conform` against the reference backend, which keeps every rule, and against the same
/// backend with a rule broken, which each check must catch (`PolicyBreaksTests` breaks every rule on every road).
@Suite struct ConformTests {
    @Test func everyCheckedRuleIsKeptByTheReferenceBackend() async throws {
        // Issue 46 item 6: against the reference backend time passes by moving its clock, never by waiting, so the
        // only real time a run spends idle is fault.timeout's client time-out (scripts/bench-conform.sh).
        let waits = Waits()
        var settings = ConformSettings()
        settings.wait = { seconds in waits.seen.withLock { $0.append(seconds) } }
        let run = try await conform(settings: settings)
        #expect(waits.seen.withLock { $0 } == [])
        // One verdict per rule and road.
        #expect(run.checked.map(\.name) == Road.all.map(\.name))
        // Rules no request provokes honestly are skipped with the reason, never kept; admin.unauthorized needs
        // a backend started with an admin token (the next test).
        let unprovokable = Self.unprovokable.union([.adminUnauthorized])
        for result in run.checked {
            if unprovokable.contains(result.rule) {
                guard case .skipped = result.verdict else {
                    Issue.record("\(result.name): \(result.verdict)")
                    continue
                }
            } else {
                #expect(result.verdict == .kept, "\(result.name): \(result.verdict)")
            }
        }
        #expect(run.brokenCount == 0)
        // Rules without a check are listed apart, never as kept.
        let unchecked = Set(Rule.allCases).subtracting(Catalogue.checks.map(\.rule)).subtracting([.ok])
        #expect(Set(run.results.filter { $0.verdict == .notChecked }.map(\.rule)) == unchecked)
        let skipped = run.checked.filter { unprovokable.contains($0.rule) }.count
        #expect(run.summary.contains("\(run.checked.count - skipped) kept, 0 broken, \(skipped) skipped"))
        #expect(run.summary.contains("\(unchecked.count) not checked (no check written) in "))
    }

    /// Rules no client can provoke on the reference backend: a 500 or the framework's 405 on purpose, the server's
    /// hourly cap from one address, a world with no scenario, a broken scenario file on the server's disk, an
    /// outbox message the contract cannot describe.
    static let unprovokable: Set<Rule> = [
        .httpInternal, .httpMethod, .rateLimitGlobalHourly, .adminNoScenario, .adminScenarioInvalid,
        .adminOutboxInvalid,
    ]

    /// Every rule has a check now: none is "not checked".
    @Test func everyRuleHasACheck() {
        let unchecked = Set(Rule.allCases).subtracting(Catalogue.checks.map(\.rule)).subtracting([.ok])
        #expect(unchecked.isEmpty, "\(unchecked.map(\.rawValue).sorted())")
    }

    /// The skipped checks say why, exactly, and are skipped however the run is set up.
    @Test func theUnprovokableAdminRulesAreSkippedSayingWhy() async throws {
        let run = try await conform(
            Selection(only: ["admin.no_scenario", "admin.scenario_invalid", "admin.outbox_invalid"]))
        #expect(
            run.verdict(.adminScenarioInvalid)
                == .skipped("needs a broken scenario file on the server's disk, which no request can write"))
        for rule in [Rule.adminNoScenario, .adminOutboxInvalid] {
            guard case .skipped(let why) = run.verdict(rule) else {
                Issue.record("\(rule.rawValue): \(String(describing: run.verdict(rule)))")
                continue
            }
            #expect(why.contains("no request"), "\(why)")
        }
    }

    /// A base URL that names a world is run in as given (the app's panel runs in /w/conform): the worlds admin
    /// API's checks say that, not that the backend serves no worlds.
    @Test func inAWorldTheURLNamesTheWorldsChecksSaySo() async throws {
        let run = try await conform(Selection(only: ["admin.world_name"]), baseWorld: "panel")
        #expect(
            run.verdict(.adminWorldName)
                == .skipped(
                    "the run is in world panel, as its URL names: the worlds admin API is checked from the server's "
                        + "bare URL"))
    }

    /// The clock of `accessdeck serve`'s scenarios runs with wall time; a check that moves it to 1 s before a
    /// deadline must not lose that second to a slow machine. Each road's scenario is loaded with its clock stopped.
    @Test func aRunStopsTheClockOfEachScenarioItLoads() async throws {
        var frozen: Bool?
        let run = try await conform(
            Selection(only: ["otp.expired"]), baseWorld: "panel", clock: .running,
            after: { backend in
                let clock: ClockState = try await backend.get("/w/panel/_admin/clock").decode()
                frozen = clock.frozen
            })
        for result in run.checked { #expect(result.verdict == .kept, "\(result.name): \(result.verdict)") }
        #expect(frozen == true)
    }

    /// The cap is reached by opening worlds up to it, which are deleted afterwards; on a server whose cap is far
    /// off the check is skipped with the number it would need.
    @Test func theWorldLimitIsReachedOnlyWhenLittleRoomIsLeft() async throws {
        let kept = try await conform(
            Selection(only: ["admin.world_limit"]),
            after: { backend in
                let worlds = try await backend.send(.GET, "/_admin/worlds")
                #expect(worlds.headers.first(name: "X-Max-Worlds") == "\(conformMaxWorlds)")
                #expect(!String(decoding: worlds.data, as: UTF8.self).contains("conform-"))
            })
        #expect(kept.verdict(.adminWorldLimit) == .kept)
        let far = try await conform(Selection(only: ["admin.world_limit"]), maxWorlds: 200)
        #expect(
            far.verdict(.adminWorldLimit)
                == .skipped(
                    "reaching --max-worlds 200 would open 199 more worlds on a server others may be using "
                        + "(conform opens at most \(Catalogue.mostWorldsToFill))"))
    }

    /// The same catalogue against a reference backend that wants an admin token, run with it: every check but
    /// the three no run provokes is kept, admin.unauthorized included.
    @Test func withAnAdminTokenEveryCheckIsKeptAndAWrongTokenIsRefused() async throws {
        let run = try await conform(adminToken: "conform-admin-token-0123456789")
        let skipped = run.checked.filter { if case .skipped = $0.verdict { true } else { false } }.map(\.rule)
        #expect(Set(skipped) == Self.unprovokable)
        #expect(run.verdict(.adminUnauthorized) == .kept)
        #expect(run.brokenCount == 0)
    }

    /// Issue 32: the run has a world of its own, deleted afterwards; the default world keeps the scenario someone
    /// loaded into it, its clock and its outbox.
    @Test func aRunLeavesTheDefaultWorldAsItWas() async throws {
        var before: (state: String, outbox: Int) = ("", 0)
        let rules = ["signin.signed_up", "two_factor.passed", "admin.world_exists"]
        let scenario = Data(#"{"name":"two-factor"}"#.utf8)
        let run = try await conform(
            Selection(only: rules),
            before: { backend in
                #expect(try await backend.send(.POST, "/_admin/scenario", raw: scenario).status == 200)
                before = try await Self.defaultWorld(backend)
            }, inWorld: true,
            after: { backend in
                let after = try await Self.defaultWorld(backend)
                #expect(after.state == before.state)
                #expect(after.outbox == before.outbox)
                let worlds = try await backend.send(.GET, "/_admin/worlds")
                #expect(!String(decoding: worlds.data, as: UTF8.self).contains("conform-"))
            })
        for rule in rules { #expect(run.verdict(Rule(rawValue: rule)!) == .kept, "\(rule)") }
    }

    /// The default world's scenario, epoch and clock (`GET /_admin/state`), and how many messages its
    /// outbox holds.
    static func defaultWorld(_ backend: TestBackend) async throws -> (state: String, outbox: Int) {
        let state = try await backend.send(.GET, "/_admin/state")
        let object = try JSONSerialization.jsonObject(with: state.data) as? [String: Any]
        // Compared as text, so the clock's members are written in a fixed order: a dictionary's own description
        // follows the process's hash seed.
        let summary = ["scenario", "epoch", "clock"].map { key -> String in
            guard let members = object?[key] as? [String: Any] else { return "\(object?[key] ?? "absent")" }
            return members.keys.sorted().map { "\($0)=\(members[$0]!)" }.joined(separator: ",")
        }
        .joined(separator: " ")
        let outbox = try await backend.send(.GET, "/_admin/outbox")
        let messages = try JSONSerialization.jsonObject(with: outbox.data) as? [Any]
        return (summary, messages?.count ?? -1)
    }

    /// The same checks pass on the same backend with nothing switched off: the switch is what they catch.
    @Test func theSwitchedOffRulesAreKeptWithTheSwitchOff() async throws {
        let rules: [Rule] = [.signInCodeIncorrectExhausted, .sessionRefreshReused, .linkExpired]
        let run = try await conform(Selection(only: rules.map(\.rawValue)))
        for rule in rules { #expect(run.verdict(rule) == .kept, "\(rule.rawValue)") }
    }

    /// The http family has no switch: an injected fault makes an unknown path answer 200.
    @Test func aFaultThatAnswersAnUnknownPathIsReportedBroken() async throws {
        let run = try await conform(Selection(only: ["http.not_found"])) { backend in
            let faults = #"{"endpoints":[{"path":"/conform-no-such-endpoint","kind":"body","body":"{}"}]}"#
            let reply = try await backend.send(.POST, "/_admin/faults", raw: Data(faults.utf8))
            #expect(reply.status == 200)
        }
        guard case .broken = run.verdict(.httpNotFound) else {
            Issue.record("\(String(describing: run.verdict(.httpNotFound)))")
            return
        }
    }

    /// The request's own framing, which the gateway or the router answers before any operation runs, so no rule
    /// policy breaks it: a fault makes the endpoint answer 200 `{}` in its place, and the check must say broken.
    @Test(arguments: [
        (Rule.httpBadRequest, "/auth/sign-in/code"), (.httpUnsupportedMediaType, "/auth/sign-in/code"),
        (.httpPayloadTooLarge, "/auth/sign-in/code"), (.httpMethodNotAllowed, "/auth/sign-in/code"),
    ])
    func aRuleAFaultAnswersForIsReportedBroken(rule: Rule, path: String) async throws {
        let run = try await conform(Selection(only: [rule.rawValue])) { backend in
            let faults = #"{"endpoints":[{"path":"\#(path)","kind":"body","body":"{}"}]}"#
            let reply = try await backend.send(.POST, "/_admin/faults", raw: Data(faults.utf8))
            #expect(reply.status == 200)
        }
        guard case .broken = run.verdict(rule) else {
            Issue.record("\(rule.rawValue): \(String(describing: run.verdict(rule)))")
            return
        }
    }

    @Test func onlyAndSkipTakeRuleIdsAndFamilies() {
        let selection = Selection(only: ["signin", "session.invalid"], skip: ["signin.signed_up"])
        #expect(selection.includes(.signInCodeIncorrect))
        #expect(selection.includes(.sessionInvalid))
        #expect(!selection.includes(.signInSignedUp))
        #expect(!selection.includes(.sessionRefreshed))
        #expect(Selection(only: ["nonsense", "signin"]).unknownNames == ["nonsense"])
    }
}
