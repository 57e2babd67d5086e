import AccessAPI
import AccessAppTesting
import AccessConform
import AccessCore
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Issue 32: the palette's "Run conformance": one call a rule with a progress line, Esc stops between two
/// checks, the results listed one line a rule, Enter on a broken one shows expected, got and its spec note.
@Suite struct ConformPanelTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let target = "http://127.0.0.1:8080/w/conform"
    let rules: [Rule] = [.otpExpired, .otpCodeIncorrect]

    func state() -> AppState {
        var state = SampleData.state([], now: start)
        state.options.backendURL = "http://127.0.0.1:8080"
        state.size = .standard
        return state
    }

    func text(_ state: AppState) -> String { render(state, size: .standard).text() }

    @Test func thePaletteOffersItAndRunsInAWorldOfItsOwn() {
        var state = state()
        #expect(CommandPalette.commands(for: state).contains { $0.action == .runConformance })
        let effects = runPaletteAction(.runConformance, in: &state)
        let first = ConformPanel.checkedRules[0]
        // First it asks whether the target is the reference backend, once for the whole run.
        #expect(effects == [.request(DetectConformBackend(target: target), id: 1)])
        #expect(state.overlay?.as(ConformPanel.self)?.target == target)
        #expect(text(state).contains("Checking 1 of \(ConformPanel.checkedRules.count): \(first.rawValue)…"))
        // The app in a world of its own already: the conform world is the backend's, not nested in the app's.
        #expect(
            ConformPanel.target(baseURL: "http://h:1/w/alice/", world: "alice", isReference: true)
                == "http://h:1/w/conform")
        #expect(
            ConformPanel.target(baseURL: "https://api.example.com", world: nil, isReference: false)
                == "https://api.example.com")
    }

    /// The reference backend is detected once, before the first check; every check then runs knowing it.
    @Test func theBackendIsDetectedOnceARun() {
        var start = state()
        start.overlay = AnyOverlay(ConformPanel(target: target, rules: rules))
        start.pending[.inFlight] = start.waiting(.overlay, DetectConformBackend.self) {
            ConformPanel.Reply.detected($0)
        }
        let harness = ReducerHarness(start)
        var panel = ConformPanel(target: target, rules: rules, isReference: true)
        harness.send(
            .reply(true, to: .inFlight),
            effects: [.request(RunConformCheck(target: target, rule: .otpExpired, isReference: true), id: 1)]
        ) {
            $0.overlay = AnyOverlay(panel)
            $0.answered()
            $0.pending[RequestID(1)] = $0.waiting(.overlay, RunConformCheck.self)
            $0.nextRequestID = 2
        }
        let kept = ConformRun([RuleResult(.otpExpired, verdict: .kept)])
        panel.run = kept
        // The second rule's call follows at once: no second detection.
        harness.send(
            .reply(kept, to: RequestID(1)),
            effects: [.request(RunConformCheck(target: target, rule: .otpCodeIncorrect, isReference: true), id: 2)]
        ) {
            $0.overlay = AnyOverlay(panel)
            $0.answered(RequestID(1))
            $0.pending[RequestID(2)] = $0.waiting(.overlay, RunConformCheck.self)
            $0.nextRequestID = 3
        }
    }

    /// Against another backend the panel cannot read codes, and waits no minutes: its skips say what the app's
    /// user can do (the command line, in a shell), not which flag to give. No request goes out for either.
    @Test func skipsAgainstAnotherBackendSayWhatTheAppUserCanDo() async throws {
        let target = "http://127.0.0.1:9"
        let client = AccountClient(configuration: .init(baseURL: target), sessionStore: nil)
        let api = APIContext(client: client, cache: nil, now: start)
        let codes = try await RunConformCheck(target: target, rule: .signInCodeIncorrect, isReference: false)
            .perform(api)
        let minutes = try await RunConformCheck(target: target, rule: .otpExpired, isReference: false).perform(api)
        await client.shutdown()
        let reasons = [codes, minutes].map { (run: ConformRun) -> String in
            guard case .skipped(let why) = run.results.first?.verdict else { return "not skipped" }
            return why
        }
        #expect(reasons[0] == ConformFrontEnd.app.needsMessages)
        #expect(reasons[0].contains("in a shell") && !reasons[0].contains("give --inbox"))
        #expect(reasons[1] == "waits 6 min of real time: run accessdeck conform --wait-long in a shell")
    }

    /// The summary line fits the panel at 80x24 with three-digit counts: its wording is the panel's own.
    @Test func theSummaryFitsAt80Columns() {
        var state = state()
        let every = Rule.allCases.filter { $0 != .ok }
        #expect(every.count >= 100)
        state.overlay = AnyOverlay(
            ConformPanel(
                target: target, rules: every,
                run: ConformRun(every.map { RuleResult($0, verdict: .kept) }), isReference: true))
        let lines = text(state).split(separator: "\n")
        let summary = try? #require(lines.first { $0.contains("\(every.count) kept") })
        #expect(summary?.contains("· 0 not checked ") == true, "\(summary ?? "")")
        #expect(summary?.contains("…") == false)
    }

    /// At 80x24 the longest rule id (37 characters) is shown whole, its reason beside it.
    @Test func theLongestRuleIdIsNotCutAt80Columns() {
        var state = state()
        let longest = Rule.allCases.max { $0.rawValue.count < $1.rawValue.count }!
        state.overlay = AnyOverlay(
            ConformPanel(
                target: target, rules: [longest],
                run: ConformRun([RuleResult(longest, title: "new codes", verdict: .kept)]), isReference: true))
        #expect(text(state).contains("✔ \(longest.rawValue) new codes"))
    }

    @Test func checksRuleByRuleThenListsTheUncheckedRulesAndEnterShowsTheSpecNote() {
        var start = state()
        start.overlay = AnyOverlay(ConformPanel(target: target, rules: rules, isReference: true))
        start.pending[.inFlight] = start.waiting(.overlay, RunConformCheck.self) {
            ConformPanel.Reply.checked(.otpExpired, $0)
        }
        let harness = ReducerHarness(start)
        let kept = ConformRun([
            RuleResult(.otpExpired, title: "a code dies after 5 minutes", verdict: .kept)
        ])
        let broken = RuleResult(
            .otpCodeIncorrect, title: "a wrong code",
            verdict: .broken(expected: "401 code_incorrect", got: "200", evidence: ["POST /auth/verify\n→ 200"]))
        var panel = ConformPanel(target: target, rules: rules, isReference: true)
        panel.run = kept
        harness.send(
            .reply(kept, to: .inFlight),
            effects: [.request(RunConformCheck(target: target, rule: .otpCodeIncorrect, isReference: true), id: 1)]
        ) {
            $0.overlay = AnyOverlay(panel)
            $0.answered()
            $0.pending[RequestID(1)] = $0.waiting(.overlay, RunConformCheck.self)
            $0.nextRequestID = 2
        }
        #expect(text(harness.state).contains("Checking 2 of 2: otp.code_incorrect…"))
        harness.send(.reply(ConformRun([broken]), to: RequestID(1))) {
            panel.run.results.append(broken)
            for rule in Rule.allCases where rule != .ok && !rules.contains(rule) {
                panel.run.results.append(RuleResult(rule, verdict: .notChecked))
            }
            panel.isRunning = false
            $0.overlay = AnyOverlay(panel)
            $0.answered(RequestID(1))
        }
        let list = text(harness.state)
        #expect(list.contains("1 kept · 1 broken"))
        #expect(list.contains("✘ otp.code_incorrect"))
        #expect(!list.contains("Checking"))
        // Enter on the broken rule: its expected, got and the spec note, AccessCore's one line for the rule.
        harness.send(.input(.key(.down))) {
            panel.selection = 1
            $0.overlay = AnyOverlay(panel)
        }
        harness.send(.input(.key(.enter))) {
            panel.detail = .otpCodeIncorrect
            $0.overlay = AnyOverlay(panel)
        }
        let detail = text(harness.state)
        #expect(detail.contains("Expected: 401 code_incorrect"))
        #expect(detail.contains("Got: 200"))
        #expect(detail.contains("Spec note (otp): " + Rule.otpCodeIncorrect.summary.prefix(20)))
    }

    @Test func escStopsBetweenTwoChecksAndTheLateAnswerIsDropped() {
        var start = state()
        start.overlay = AnyOverlay(ConformPanel(target: target, rules: rules))
        start.pending[.inFlight] = start.waiting(.overlay, RunConformCheck.self) {
            ConformPanel.Reply.checked(.otpExpired, $0)
        }
        let harness = ReducerHarness(start)
        var panel = ConformPanel(target: target, rules: rules)
        harness.send(.input(.key(.escape))) {
            panel.isRunning = false
            panel.isStopped = true
            $0.overlay = AnyOverlay(panel)
        }
        #expect(text(harness.state).contains("Stopped after 0 of 2 rules"))
        let late = ConformRun([RuleResult(.otpExpired, title: "", verdict: .kept)])
        harness.send(.reply(late, to: .inFlight)) { $0.answered() }
        harness.send(.input(.key(.escape))) { $0.overlay = nil }
    }
}
