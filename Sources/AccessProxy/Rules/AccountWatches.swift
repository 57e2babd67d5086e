import AccessCore
import Foundation

/// The changes that need Verify it's you (those openapi.yaml gives an X-Reauth-Token), and whether the account
/// of one, as the traffic last listed its methods, has something else than the change's target to verify with.
enum SensitiveChange {
    /// The method `observed` changes (nil: none, as deleting the account); nil when it is no sensitive change,
    /// or one whose target the traffic does not show (a phone code's purpose).
    static func target(of observed: Observation) -> ReauthFactor?? {
        switch observed.contractOperation {
        case .deleteAccount, .signOutSession, .signOutOtherSessions, .disableTwoFactor, .startTwoFactorSetup,
            .regenerateRecoveryCodes:
            return .some(nil)
        case .changePassword: return .some(.password)
        case .disconnectProvider: return observed[.provider].flatMap(ReauthFactor.init(rawValue:)).map { .some($0) }
        default: return nil
        }
    }

    /// The answer that listed the account's methods, when `observed` is a change that needs a grant for it.
    static func needingGrant(_ observed: Observation, _ accounts: Accounts) -> Observation? {
        guard case .some(let changed) = target(of: observed), let listed = accounts.methods(of: observed),
            let rule = listed.reauthRule, !rule.sessionSuffices(for: changed)
        else { return nil }
        return listed
    }
}

/// `reauth.required`: a sensitive change is accepted only with a re-auth grant.
struct ReauthRequiredWatch: RuleWatcher {
    let rules: [Rule] = [.reauthRequired]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard observed[.reauth] == nil, let listed = SensitiveChange.needingGrant(observed, accounts) else { return }
        judgements.judge(.reauthRequired, observed, proof: [listed.number])
    }
}

/// `reauth.granted`: a grant verifies changes for `ReauthRules.window` from the answer that made it, not longer.
struct GrantAgeWatch: RuleWatcher {
    let rules: [Rule] = [.reauthGranted]
    /// Grant → the answer that made it.
    private var granted: [String: Observation] = [:]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        if observed.isAccepted, let grant = observed[.grant] { granted[grant] = observed }
        guard let presented = observed[.reauth], let grant = granted[presented],
            SensitiveChange.needingGrant(observed, accounts) != nil,
            Elapsed.surely(atLeast: ReauthRules.window, from: grant.time, to: observed.time)
        else { return }
        judgements.judge(.reauthGranted, observed, proof: [grant.number])
    }
}

/// `disconnect.last_method`: the account's only sign-in method cannot be disconnected.
struct LastMethodWatch: RuleWatcher {
    let rules: [Rule] = [.disconnectLastMethod]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard observed.contractOperation == .disconnectProvider,
            let method = observed[.provider].flatMap(SignInMethod.init(rawValue:)),
            let listed = accounts.methods(of: observed), let rule = listed.reauthRule, rule.methods.isOnly(method)
        else { return }
        judgements.judge(.disconnectLastMethod, observed, proof: [listed.number])
    }
}

/// `delete.blocked`: an account is not deleted while the backend's own preflight lists blockers.
struct DeleteBlockersWatch: RuleWatcher {
    let rules: [Rule] = [.deleteBlocked]
    /// User → the last preflight answered for them.
    private var preflights: [String: Observation] = [:]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard let user = accounts.user(of: observed) else { return }
        switch observed.contractOperation {
        case .deletePreflight where observed.isAccepted:
            preflights[user] = observed
        case .deleteAccount:
            guard let preflight = preflights[user], let count = preflight[.blockers].flatMap(Int.init), count > 0
            else { return }
            judgements.judge(.deleteBlocked, observed, proof: [preflight.number])
        default:
            return
        }
    }
}
