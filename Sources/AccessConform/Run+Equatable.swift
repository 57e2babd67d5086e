import AccessCore

// For the app's conformance panel (issue 32): it keeps a run in its state, which is compared in reducer tests,
// and builds it up one rule at a time.

extension RuleResult: Equatable {
    public static func == (lhs: RuleResult, rhs: RuleResult) -> Bool {
        lhs.rule == rhs.rule && lhs.operation == rhs.operation && lhs.title == rhs.title && lhs.verdict == rhs.verdict
            && lhs.notes == rhs.notes
    }
}

extension RuleResult {
    /// The memberwise initialiser is internal; this one is the app's.
    public init(
        _ rule: Rule, on operation: ContractOperation? = nil, title: String = "", verdict: Verdict, notes: [String] = []
    ) {
        self.rule = rule
        self.operation = operation
        self.title = title
        self.verdict = verdict
        self.notes = notes
    }
}

extension ConformRun: Equatable {
    public init(_ results: [RuleResult]) { self.results = results }

    /// The wall time is the run's, not its result's: two runs with the same verdicts are the same run.
    public static func == (lhs: ConformRun, rhs: ConformRun) -> Bool { lhs.results == rhs.results }
}
