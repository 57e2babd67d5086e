import AccessCore
import Foundation

/// The operations that send, resend and check a sign-in code or a phone code.
enum CodeRoads {
    static let sends: Set<ContractOperation> = [.startSignInCode, .resendSignInCode, .requestOtp, .resendOtp]
    static let resends: Set<ContractOperation> = [.resendSignInCode, .resendOtp]
    static let checks: Set<ContractOperation> = [.verifySignInCode, .verifyOtp]
}

extension Observation {
    var contractOperation: ContractOperation? { operation.flatMap(ContractOperation.init(rawValue:)) }
}

/// `otp.expired`: a code is accepted only within `CodeRules.lifetime` of the answer that sent it.
struct CodeLifetimeWatch: RuleWatcher {
    let rules: [Rule] = [.otpExpired]
    /// Code request → the answer that sent its current code.
    private var sent: [String: Observation] = [:]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard let operation = observed.contractOperation, let challenge = observed[.challenge] else { return }
        if CodeRoads.sends.contains(operation) {
            if observed.isAccepted { sent[challenge] = observed }
            return
        }
        guard CodeRoads.checks.contains(operation), let issued = sent[challenge] else { return }
        if Elapsed.surely(atLeast: CodeRules.lifetime, from: issued.time, to: observed.time) {
            judgements.judge(.otpExpired, observed, proof: [issued.number])
        }
        // A used code is another rule's business.
        if observed.isAccepted { sent[challenge] = nil }
    }
}

/// `signin.code_incorrect_exhausted`, `otp.code_incorrect_exhausted`: after `CodeRules.maxWrongAttempts` wrong
/// tries the code is dead, the right one included, until a resend sends a new one. Kept: a check refused after
/// that many `code_incorrect` answers. Broken: a code accepted after that many refused checks of other codes (the
/// one accepted is the right one, so every other was wrong, however the backend answered it).
struct WrongTriesWatch: RuleWatcher {
    let rules: [Rule] = [.signInCodeIncorrectExhausted, .otpCodeIncorrectExhausted]
    /// Code request → the refused checks of its current code.
    private var refused: [String: [Observation]] = [:]

    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements) {
        guard let operation = observed.contractOperation, let challenge = observed[.challenge] else { return }
        if CodeRoads.sends.contains(operation) {
            if observed.isAccepted { refused[challenge] = nil }
            return
        }
        guard CodeRoads.checks.contains(operation) else { return }
        let before = refused[challenge] ?? []
        let rule: Rule = operation == .verifySignInCode ? .signInCodeIncorrectExhausted : .otpCodeIncorrectExhausted
        if observed.isAccepted {
            let wrong = before.filter { $0[.code] != observed[.code] }
            if wrong.count >= CodeRules.maxWrongAttempts {
                judgements.judge(rule, observed, proof: wrong.suffix(CodeRules.maxWrongAttempts).map(\.number))
            }
            refused[challenge] = nil
            return
        }
        if before.filter({ $0[.error] == "code_incorrect" }).count >= CodeRules.maxWrongAttempts {
            judgements.judge(rule, observed, proof: [])
        }
        refused[challenge, default: []].append(observed)
    }
}
