import AccessCore
import Foundation

/// One check of one rule of docs/RULES.md, on each of the rule's roads (`Rule.operations`): one verdict per rule
/// and operation, or one for a rule of the request itself or of a fault, which has no road of its own.
public struct Check: Sendable {
    public let rule: Rule
    /// What it does, in a line.
    public let title: String
    public let needs: Needs
    /// The body is written for each road of the rule (it takes the operation); otherwise the rule has at most
    /// one road, which the body checks.
    public let takesTheRoad: Bool
    let body: @Sendable (CheckContext, ContractOperation?) async throws -> Void

    public var family: Rule.Family { rule.family }

    /// The roads it checks the rule on, one verdict each; empty: the rule is checked once.
    public var operations: [ContractOperation] { rule.operations }

    /// A rule with one road, or none.
    init(
        _ rule: Rule, _ title: String, needs: Needs = Needs(),
        _ body: @escaping @Sendable (CheckContext) async throws -> Void
    ) {
        self.rule = rule
        self.title = title
        self.needs = needs
        self.takesTheRoad = false
        self.body = { context, _ in try await body(context) }
    }

    /// A rule with several roads: `body` checks it on the one it is given.
    init(
        _ rule: Rule, _ title: String, needs: Needs = Needs(),
        eachRoad body: @escaping @Sendable (CheckContext, ContractOperation) async throws -> Void
    ) {
        self.rule = rule
        self.title = title
        self.needs = needs
        self.takesTheRoad = true
        self.body = { context, operation in
            guard let operation else { throw CheckStop.cannotTell("the check was run without a road") }
            try await body(context, operation)
        }
    }
}

/// What a check needs from the run, so the runner can skip it up front and say why.
public struct Needs: Sendable {
    /// Codes or links from the message source.
    public var messages = false
    /// The total time it makes pass on one road (on the reference backend's clock, or waited for).
    public var time: Double = 0
    /// The longest single wait: over 30 s, another backend needs `--wait-long`. Most checks wait out a cooldown
    /// at a time, so it is the cooldown unless a check names a longer one.
    public var longestWait: Double = 0
    /// Against the reference backend, the scenario it starts from (every check starts from one).
    public var scenario = "default"
    /// Set when only the reference backend can set up what the check needs; the reason is the skip's.
    public var referenceOnly: String?

    public init(
        messages: Bool = false, time: Double = 0, longestWait: Double? = nil, scenario: String = "default",
        referenceOnly: String? = nil
    ) {
        self.messages = messages
        self.time = time
        self.longestWait = longestWait ?? min(time, SendLimits.cooldown)
        self.scenario = scenario
        self.referenceOnly = referenceOnly
    }
}

extension Catalogue {
    /// A time as a check's title or message says it ("30 s", "15 min", "7 days"), from the rule's constant in
    /// AccessCore, so a rule that changes there changes the words too (`CheckWordsTests`).
    static func time(_ seconds: TimeInterval) -> String { RuleText.duration(seconds, .short) }
}
