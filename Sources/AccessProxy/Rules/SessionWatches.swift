import AccessCore
import Foundation

/// `link.expired`: a link works once; the same link accepted a second time was spent and accepted anyway.
struct SpentLinkWatch: RuleWatcher {
    let rules: [Rule] = [.linkExpired]
    /// The operations that open a link, spending it.
    static let opens: Set<ContractOperation> = [
        .reauthEmailConfirm, .verifyEmailLink, .revertEmailChange, .confirmRegistration,
    ]
    /// Link → the exchange that spent it.
    private var spent: [String: Int] = [:]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard let operation = observed.contractOperation, Self.opens.contains(operation), let link = observed[.link]
        else { return }
        if let first = spent[link] {
            judgements.judge(.linkExpired, observed, proof: [first])
        } else if observed.isAccepted {
            spent[link] = observed.number
        }
    }
}

/// `session.refresh_reused`: a refresh token already rotated, presented again after `RefreshRules.reuseInterval`
/// (within it the same pair may come back, `session.refresh_retried`), gets no tokens.
struct RefreshReuseWatch: RuleWatcher {
    let rules: [Rule] = [.sessionRefreshReused]
    /// Refresh token → the answer that rotated it.
    private var rotated: [String: Observation] = [:]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard observed.contractOperation == .refreshSession, let refresh = observed[.refresh] else { return }
        if let first = rotated[refresh] {
            if Elapsed.surely(atLeast: RefreshRules.reuseInterval, from: first.time, to: observed.time) {
                judgements.judge(.sessionRefreshReused, observed, proof: [first.number])
            }
        } else if observed.isAccepted {
            rotated[refresh] = observed
        }
    }
}
