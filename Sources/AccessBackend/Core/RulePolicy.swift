import AccessCore
import Hummingbird

/// Which rules the server keeps, and on which operations. Every decision of a rule asks it, by the rule's name:
/// `RulePolicy.current.enforces(.rateLimitCooldown)` where a send would be refused for the cooldown, and so on.
/// Inside a request the policy is the answering world's, carried by the request's `ContractScope`; the request
/// gate and the worlds admin API, which decide before any world answers, hold the server's.
///
/// Every server the executable starts keeps every rule (`RulePolicy.everyRule`). conform's self-tests
/// (Tests/AccessConformTests) start one that breaks a named rule, on every operation or on named ones only
/// (`breaking(_:on:)`), to show that each check catches a backend that does not keep its rule on that road; or
/// that breaks one promise of a rule alone (`breaking(_:only:)`, an `Effect` the service asks about where it
/// writes that promise), to show that the check asserts the state the rule leaves, not only its answer.
/// No command line and no request can set it.
public struct RulePolicy: Sendable {
    /// One promise of a rule whose entry in docs/RULES.md makes several, for a self-test that breaks it alone: the
    /// rule's answer and its other effects stay kept, so only the check's assertion of this one can catch it.
    public enum Effect: Sendable, Hashable {
        /// profile.saved, onboarding.continued, onboarding.recovery_email_set, register.confirmed, signin.signed_up:
        /// the onboarding step left (or, for a sign-up, started at) is stored, not only answered.
        case onboardingStepStored
        /// password.reset, two_factor.passed, session.signed_out, session.signed_out_others: the refresh tokens end
        /// with the access tokens.
        case refreshTokensEnd
        /// two_factor.enabled: the first code's step is recorded, so that code cannot pass a sign-in afterwards.
        case enablingStepRecorded
        /// email.reverted: the session the change's link issued ends with the account's others.
        case changeSessionEnds
        /// session.refreshed: a refreshed session with limited access stays limited.
        case limitedStaysLimited
        /// two_factor.setup_started: a new setup replaces a pending one.
        case pendingSetupReplaced
        /// password.reset: no session is issued (the person logs in with the new password).
        case noSessionIssued
        /// email.changed: the session the answer carries is stored, so it works.
        case issuedSessionWorks
        /// two_factor.passed: the new pair stays in the same sign-in, so Active sessions lists one session.
        case sameSignIn
        /// signin.code_incorrect_exhausted, otp.code_incorrect_exhausted: a resend may replace a killed code.
        case killedCodeReplaceable
        /// signin.code_resent: a request another one replaced cannot be resent.
        case replacedRequestClosed
        /// disconnect.done: every id token not yet used for the link is revoked with its grant.
        case unusedTokensRevoked
        /// two_factor.disabled: the secret, the recovery codes and any pending setup are deleted, not only unused.
        case secretsDeleted
        /// email.link_resent: a pending change's link can be resent for a day after it expired.
        case resendableForADayAfterExpiry
    }

    private struct Break: Sendable {
        /// nil: on every operation.
        var operations: Set<ContractOperation>?
        /// nil: the whole rule.
        var effect: Effect?

        /// Whether it reaches `request`: a break on named operations is kept wherever the operation is not known.
        func reaches(_ request: Request?) -> Bool {
            guard let operations else { return true }
            guard let request,
                let operation = ContractOperation.matching(method: request.method.rawValue, path: request.uri.path)
            else { return false }
            return operations.contains(operation)
        }
    }

    private let broken: [Rule: Break]

    /// What production runs: every rule kept, on every operation.
    public static let everyRule = RulePolicy(broken: [:])

    /// For conform's self-tests: `rules` broken on `operations` (nil: on every operation), every other rule kept.
    public static func breaking(_ rules: Rule..., on operations: Set<ContractOperation>? = nil) -> RulePolicy {
        RulePolicy(broken: Dictionary(uniqueKeysWithValues: rules.map { ($0, Break(operations: operations)) }))
    }

    /// For conform's self-tests: `rule` broken in `effect` alone, every other promise of it and every other rule kept.
    public static func breaking(_ rule: Rule, only effect: Effect) -> RulePolicy {
        RulePolicy(broken: [rule: Break(effect: effect)])
    }

    /// The policy of the world answering the request being served; outside a request, production's.
    static var current: RulePolicy { ContractScope.current?.policy ?? .everyRule }

    /// Whether `rule` is kept for the request being served. Asked only where the rule decides (a refusal about
    /// to be answered, an effect about to be written), so a server that keeps every rule pays a test of an empty
    /// table there and nothing elsewhere. A rule broken on named operations is kept wherever the request's
    /// operation is not known, as outside a request.
    func enforces(_ rule: Rule) -> Bool { enforces(rule, answering: ContractScope.current?.request) }

    /// Whether `rule`'s `effect` is kept: broken by a break of the whole rule, or of that effect alone.
    func enforces(_ rule: Rule, _ effect: Effect) -> Bool {
        guard !broken.isEmpty, let rupture = broken[rule], rupture.effect == nil || rupture.effect == effect else {
            return true
        }
        return !rupture.reaches(ContractScope.current?.request)
    }

    /// The same for `request`, where no contract scope is open yet: the request gate and the admin check.
    func enforces(_ rule: Rule, answering request: Request?) -> Bool {
        guard !broken.isEmpty, let rupture = broken[rule], rupture.effect == nil else { return true }
        return !rupture.reaches(request)
    }

    /// `error`, or where the policy does not keep its rule, the 400 a backend that knows no such rule would answer.
    /// The contract scope asks it of every refusal an operation ends on, so a refusal that cannot be let through
    /// (there is nothing to go on with) is broken the same way on every road.
    func refusal(_ error: BackendError, answering request: Request?) -> BackendError {
        guard !enforces(error.rule, answering: request) else { return error }
        return BackendError.badRequest("The request was refused.")
    }
}
