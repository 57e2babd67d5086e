import AccessCore
import Foundation

/// Where each code request's codes go, as the answers that sent them said.
struct Destinations: Sendable {
    private var byRequest: [String: String] = [:]

    /// The destination of the request `observed` sends or resends; learnt from it when its answer says.
    mutating func of(_ observed: Observation) -> String? {
        guard let challenge = observed[.challenge] else { return nil }
        if let said = observed[.destination] {
            byRequest[challenge] = said
            return said
        }
        return byRequest[challenge]
    }
}

/// `rate_limit.cooldown`: no resend is answered 202 within `SendLimits.cooldown` of the last code sent to the
/// same number or address.
struct CooldownWatch: RuleWatcher {
    let rules: [Rule] = [.rateLimitCooldown]
    private var destinations = Destinations()
    /// Destination → the last answer that sent it a code.
    private var lastSent: [String: Observation] = [:]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard let operation = observed.contractOperation, CodeRoads.sends.contains(operation),
            let destination = destinations.of(observed)
        else { return }
        if CodeRoads.resends.contains(operation), let last = lastSent[destination],
            Elapsed.surely(under: SendLimits.cooldown, from: last.time, to: observed.time)
        {
            judgements.judge(.rateLimitCooldown, observed, proof: [last.number])
        }
        if observed.isAccepted { lastSent[destination] = observed }
    }
}

/// `rate_limit.resend_window`: at most `SendLimits.maxResendsPerWindow` resends to one number or address are
/// answered 202 within `SendLimits.resendWindow`.
struct ResendWindowWatch: RuleWatcher {
    let rules: [Rule] = [.rateLimitResendWindow]
    private var destinations = Destinations()
    /// Destination → the answers that resent it a code and may still be in the window.
    private var resent: [String: [Observation]] = [:]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard let operation = observed.contractOperation, CodeRoads.sends.contains(operation),
            let destination = destinations.of(observed), CodeRoads.resends.contains(operation)
        else { return }
        let recent = (resent[destination] ?? []).filter {
            !Elapsed.surely(atLeast: SendLimits.resendWindow, from: $0.time, to: observed.time)
        }
        let surelyInWindow = recent.filter {
            Elapsed.surely(under: SendLimits.resendWindow, from: $0.time, to: observed.time)
        }
        if surelyInWindow.count >= SendLimits.maxResendsPerWindow {
            judgements.judge(
                .rateLimitResendWindow, observed,
                proof: surelyInWindow.suffix(SendLimits.maxResendsPerWindow).map(\.number))
        }
        resent[destination] = observed.isAccepted ? recent + [observed] : recent
    }
}
