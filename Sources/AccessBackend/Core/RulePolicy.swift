import AccessCore
import Hummingbird

/// Which rules the server keeps, and on which operations. Every decision of a rule asks it, by the rule's name:
/// `RulePolicy.current.enforces(.rateLimitCooldown)` where a send would be refused for the cooldown, and so on.
/// Inside a request the policy is the answering world's, carried by the request's `ContractScope`; the request
/// gate and the worlds admin API, which decide before any world answers, hold the server's.
///
/// Every server the executable starts keeps every rule (`RulePolicy.everyRule`). conform's self-tests
/// (Tests/AccessConformTests) start one that breaks a named rule, on every operation or on named ones only
/// (`breaking(_:on:)`), to show that each check catches a backend that does not keep its rule on that road.
/// No command line and no request can set it.
public struct RulePolicy: Sendable {
    private enum Reach: Sendable {
        case everywhere
        case on(Set<ContractOperation>)
    }

    private let broken: [Rule: Reach]

    /// What production runs: every rule kept, on every operation.
    public static let everyRule = RulePolicy(broken: [:])

    /// For conform's self-tests: `rules` broken on `operations` (nil: on every operation), every other rule kept.
    public static func breaking(_ rules: Rule..., on operations: Set<ContractOperation>? = nil) -> RulePolicy {
        let reach = operations.map(Reach.on) ?? .everywhere
        return RulePolicy(broken: Dictionary(uniqueKeysWithValues: rules.map { ($0, reach) }))
    }

    /// The policy of the world answering the request being served; outside a request, production's.
    static var current: RulePolicy { ContractScope.current?.policy ?? .everyRule }

    /// Whether `rule` is kept for the request being served. Asked only where the rule decides (a refusal about
    /// to be answered, an effect about to be written), so a server that keeps every rule pays a test of an empty
    /// table there and nothing elsewhere. A rule broken on named operations is kept wherever the request's
    /// operation is not known, as outside a request.
    func enforces(_ rule: Rule) -> Bool { enforces(rule, answering: ContractScope.current?.request) }

    /// The same for `request`, where no contract scope is open yet: the request gate and the admin check.
    func enforces(_ rule: Rule, answering request: Request?) -> Bool {
        guard !broken.isEmpty, let reach = broken[rule] else { return true }
        switch reach {
        case .everywhere: return false
        case .on(let operations):
            guard let request,
                let operation = ContractOperation.matching(method: request.method.rawValue, path: request.uri.path)
            else { return true }
            return !operations.contains(operation)
        }
    }

    /// `error`, or where the policy does not keep its rule, the 400 a backend that knows no such rule would answer.
    /// The contract scope asks it of every refusal an operation ends on, so a refusal that cannot be let through
    /// (there is nothing to go on with) is broken the same way on every road.
    func refusal(_ error: BackendError, answering request: Request?) -> BackendError {
        guard !enforces(error.rule, answering: request) else { return error }
        return BackendError.badRequest("The request was refused.")
    }
}
