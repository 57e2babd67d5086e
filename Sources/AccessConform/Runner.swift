import AccessCore
import Foundation

/// What became of one rule on one road.
public enum Verdict: Sendable, Equatable {
    case kept
    /// What the rule says, what came back, and the requests and responses that showed it, redacted.
    case broken(expected: String, got: String, evidence: [String])
    case skipped(String)
    /// The check ran but its answer says nothing about the rule (a 5xx, a missing endpoint, a used limit).
    case cannotTell(String)
    /// No check is written for this rule yet.
    case notChecked

    public var word: String {
        switch self {
        case .kept: "kept"
        case .broken: "broken"
        case .skipped: "skipped"
        case .cannotTell: "cannot tell"
        case .notChecked: "not checked"
        }
    }
}

public struct RuleResult: Sendable {
    public var rule: Rule
    /// The road the rule was checked on; nil for a rule with none (the request itself, a fault).
    public var operation: ContractOperation?
    public var title: String
    public var verdict: Verdict
    /// Cleaning up after the check went wrong (says nothing about the rule).
    public var notes: [String] = []

    /// How the report, the JUnit testcase and `--only` name it: `rate_limit.cooldown /auth/phone/resend-otp`.
    public var name: String { operation.map { "\(rule.rawValue) \($0.name)" } ?? rule.rawValue }
}

/// Which rules a run covers: `--only` and `--skip` take rule ids (`signin.code_incorrect`), families (`signin`)
/// or a rule on one road as the report names it (`rate_limit.cooldown /auth/phone/resend-otp`).
public struct Selection: Sendable {
    public var only: [String] = []
    public var skip: [String] = []

    public init(only: [String] = [], skip: [String] = []) {
        self.only = only
        self.skip = skip
    }

    /// Names that are neither a rule id, a family nor a rule on one of its roads: bad usage.
    public var unknownNames: [String] {
        (only + skip).filter { name in
            Rule(rawValue: name) == nil && Rule.Family(rawValue: name) == nil && Self.road(name) == nil
        }
    }

    /// `rule operation` as `RuleResult.name` writes it.
    static func road(_ name: String) -> (Rule, ContractOperation)? {
        guard let space = name.firstIndex(of: " "), let rule = Rule(rawValue: String(name[..<space])) else {
            return nil
        }
        let road = String(name[name.index(after: space)...])
        return rule.operations.first { $0.name == road }.map { (rule, $0) }
    }

    /// Whether any road of `rule` is chosen.
    public func includes(_ rule: Rule) -> Bool {
        rule.operations.isEmpty ? includes(rule, on: nil) : rule.operations.contains { includes(rule, on: $0) }
    }

    public func includes(_ rule: Rule, on operation: ContractOperation?) -> Bool {
        func matches(_ name: String) -> Bool {
            if name == rule.rawValue || name == rule.family.rawValue { return true }
            guard let operation, let (named, road) = Self.road(name) else { return false }
            return named == rule && road == operation
        }
        return (only.isEmpty || only.contains(where: matches)) && !skip.contains(where: matches)
    }
}

public struct ConformRun: Sendable {
    public var results: [RuleResult]
    /// The run's wall time, from its first check to its last.
    public var elapsed: Duration?

    public var brokenCount: Int { count { if case .broken = $0 { true } else { false } } }

    public func count(_ predicate: (Verdict) -> Bool) -> Int { results.filter { predicate($0.verdict) }.count }

    /// How many verdicts of each kind, in the order the summaries give them.
    private var counts: (kept: Int, broken: Int, skipped: Int, cannotTell: Int, notChecked: Int) {
        (
            count { $0 == .kept }, brokenCount, count { if case .skipped = $0 { true } else { false } },
            count { if case .cannotTell = $0 { true } else { false } }, count { $0 == .notChecked }
        )
    }

    /// `412 kept, 1 broken, 3 skipped, 1 cannot tell; 0 not checked (no check written) in 4.2 s`: one verdict
    /// per rule and road.
    public var summary: String {
        let c = counts
        return "\(c.kept) kept, \(c.broken) broken, \(c.skipped) skipped, \(c.cannotTell) cannot tell; "
            + "\(c.notChecked) not checked (no check written)" + (elapsed.map { " in " + Self.seconds($0) } ?? "")
    }

    /// `4.2 s`, or `3 min 12 s` from two minutes up.
    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        guard seconds >= 120 else { return String(format: "%.1f s", seconds) }
        return "\(Int(seconds) / 60) min \(Int(seconds) % 60) s"
    }

    /// The same counts in a line that fits the app's panel at 80 columns (72 inside it) up to 999 of each:
    /// `12 kept · 1 broken · 3 skipped · 1 cannot tell · 95 not checked`.
    public var shortSummary: String {
        let c = counts
        return "\(c.kept) kept · \(c.broken) broken · \(c.skipped) skipped · \(c.cannotTell) cannot tell · "
            + "\(c.notChecked) not checked"
    }
}

/// Runs the checks one after another (they share the backend's limits and, on the reference backend, its world).
public struct ConformRunner: Sendable {
    public let http: ConformHTTP
    public let messages: MessageSource
    public let reference: ReferenceAdmin?
    public let settings: ConformSettings
    public var checks: [Check] = Catalogue.checks

    public init(http: ConformHTTP, messages: MessageSource, reference: ReferenceAdmin?, settings: ConformSettings) {
        self.http = http
        self.messages = messages
        self.reference = reference
        self.settings = settings
    }

    /// `progress(done, total, rule)` before each rule's check.
    public func run(
        _ selection: Selection = Selection(), progress: @Sendable (Int, Int, Rule) -> Void = { _, _, _ in }
    ) async -> ConformRun {
        let clock = ContinuousClock()
        let start = clock.now
        let chosen = checks.filter { selection.includes($0.rule) }
        var results: [RuleResult] = []
        for (index, check) in chosen.enumerated() {
            progress(index, chosen.count, check.rule)
            results += await run(check, selection)
        }
        let checked = Set(checks.map(\.rule))
        for rule in Rule.allCases where !checked.contains(rule) && selection.includes(rule) && rule != .ok {
            results.append(RuleResult(rule: rule, title: "", verdict: .notChecked))
        }
        return ConformRun(results: results, elapsed: clock.now - start)
    }

    /// The check on each chosen road of its rule, in the catalogue's order. The accounts it signed up on another
    /// backend are deleted once it ran on all of them, so a road may use what an earlier one set up.
    func run(_ check: Check, _ selection: Selection) async -> [RuleResult] {
        let roads: [ContractOperation?] =
            check.operations.isEmpty ? [nil] : check.operations.filter { selection.includes(check.rule, on: $0) }
        let shared = CheckShared()
        var results: [RuleResult] = []
        for road in roads {
            var result = RuleResult(rule: check.rule, operation: road, title: check.title, verdict: .kept)
            result.verdict = await verdict(check, on: road, shared)
            results.append(result)
        }
        let context = CheckContext(
            http: http, messages: messages, reference: reference, settings: settings, shared: shared, road: nil)
        if !results.isEmpty { results[results.count - 1].notes = await context.cleanUp() }
        return results
    }

    private func verdict(_ check: Check, on road: ContractOperation?, _ shared: CheckShared) async -> Verdict {
        if let why = check.needs.referenceOnly, reference == nil { return .skipped(why) }
        if reference == nil, check.needs.longestWait > ConformSettings.longestShortWait, !settings.waitLong {
            return .skipped(settings.frontEnd.needsWaitLong(check.needs.time))
        }
        if check.needs.messages, let why = messages.unavailable { return .skipped(why) }
        let context = CheckContext(
            http: http, messages: messages, reference: reference, settings: settings, shared: shared, road: road)
        do {
            try await reference?.load(check.needs.scenario)
            try await check.body(context, road)
            return .kept
        } catch CheckStop.broken(let expected, let got, let evidence) {
            return .broken(expected: expected, got: got, evidence: evidence.map(\.redacted))
        } catch CheckStop.cannotTell(let why) {
            return .cannotTell(why)
        } catch CheckStop.skipped(let why) {
            return .skipped(why)
        } catch {
            return .cannotTell("the check stopped: \(type(of: error))")
        }
    }
}
