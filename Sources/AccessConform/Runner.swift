import AccessCore
import Foundation

/// What became of one rule.
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
    public var title: String
    public var verdict: Verdict
    /// Cleaning up after the check went wrong (says nothing about the rule).
    public var notes: [String] = []
}

/// Which rules a run covers: `--only` and `--skip` take rule ids (`signin.code_incorrect`) or families (`signin`).
public struct Selection: Sendable {
    public var only: [String] = []
    public var skip: [String] = []

    public init(only: [String] = [], skip: [String] = []) {
        self.only = only
        self.skip = skip
    }

    /// Names that are neither a rule id nor a family: bad usage.
    public var unknownNames: [String] {
        (only + skip).filter { Rule(rawValue: $0) == nil && Rule.Family(rawValue: $0) == nil }
    }

    public func includes(_ rule: Rule) -> Bool {
        func matches(_ name: String) -> Bool { name == rule.rawValue || name == rule.family.rawValue }
        return (only.isEmpty || only.contains(where: matches)) && !skip.contains(where: matches)
    }
}

public struct ConformRun: Sendable {
    public var results: [RuleResult]

    public var brokenCount: Int { count { if case .broken = $0 { true } else { false } } }

    public func count(_ predicate: (Verdict) -> Bool) -> Int { results.filter { predicate($0.verdict) }.count }

    /// How many rules had each verdict, in the order the summaries give them.
    private var counts: (kept: Int, broken: Int, skipped: Int, cannotTell: Int, notChecked: Int) {
        (
            count { $0 == .kept }, brokenCount, count { if case .skipped = $0 { true } else { false } },
            count { if case .cannotTell = $0 { true } else { false } }, count { $0 == .notChecked }
        )
    }

    /// `12 kept, 1 broken, 3 skipped, 1 cannot tell; 95 not checked (no check written)`.
    public var summary: String {
        let c = counts
        return "\(c.kept) kept, \(c.broken) broken, \(c.skipped) skipped, \(c.cannotTell) cannot tell; "
            + "\(c.notChecked) not checked (no check written)"
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

    /// `progress(done, total, rule)` before each check.
    public func run(
        _ selection: Selection = Selection(), progress: @Sendable (Int, Int, Rule) -> Void = { _, _, _ in }
    ) async -> ConformRun {
        let chosen = checks.filter { selection.includes($0.rule) }
        var results: [RuleResult] = []
        for (index, check) in chosen.enumerated() {
            progress(index, chosen.count, check.rule)
            results.append(await run(check))
        }
        let checked = Set(checks.map(\.rule))
        for rule in Rule.allCases where !checked.contains(rule) && selection.includes(rule) && rule != .ok {
            results.append(RuleResult(rule: rule, title: "", verdict: .notChecked))
        }
        return ConformRun(results: results)
    }

    func run(_ check: Check) async -> RuleResult {
        var result = RuleResult(rule: check.rule, title: check.title, verdict: .kept)
        if let why = check.needs.referenceOnly, reference == nil {
            result.verdict = .skipped(why)
            return result
        }
        if reference == nil, check.needs.longestWait > ConformSettings.longestShortWait, !settings.waitLong {
            result.verdict = .skipped(settings.frontEnd.needsWaitLong(check.needs.time))
            return result
        }
        if check.needs.messages, let why = messages.unavailable {
            result.verdict = .skipped(why)
            return result
        }
        let context = CheckContext(http: http, messages: messages, reference: reference, settings: settings)
        do {
            try await reference?.load(check.needs.scenario)
            try await check.body(context)
        } catch CheckStop.broken(let expected, let got, let evidence) {
            result.verdict = .broken(expected: expected, got: got, evidence: evidence.map(\.redacted))
        } catch CheckStop.cannotTell(let why) {
            result.verdict = .cannotTell(why)
        } catch CheckStop.skipped(let why) {
            result.verdict = .skipped(why)
        } catch {
            result.verdict = .cannotTell("the check stopped: \(type(of: error))")
        }
        result.notes = await context.cleanUp()
        return result
    }
}
