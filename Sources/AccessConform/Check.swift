import AccessCore
import Foundation

/// One check of one rule of docs/RULES.md.
public struct Check: Sendable {
    public let rule: Rule
    /// What it does, in a line.
    public let title: String
    public let needs: Needs
    let body: @Sendable (CheckContext) async throws -> Void

    public var family: Rule.Family { rule.family }

    init(
        _ rule: Rule, _ title: String, needs: Needs = Needs(),
        _ body: @escaping @Sendable (CheckContext) async throws -> Void
    ) {
        self.rule = rule
        self.title = title
        self.needs = needs
        self.body = body
    }
}

/// What a check needs from the run, so the runner can skip it up front and say why.
public struct Needs: Sendable {
    /// Codes or links from the message source.
    public var messages = false
    /// The total time it makes pass (on the reference backend's clock, or waited for).
    public var time: Double = 0
    /// The longest single wait: over 30 s, another backend needs `--wait-long`.
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
        self.longestWait = longestWait ?? time
        self.scenario = scenario
        self.referenceOnly = referenceOnly
    }
}
