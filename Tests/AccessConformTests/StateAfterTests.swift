import AccessBackend
import AccessConform
import AccessCore
import Testing

/// Issue 46, conform's promise: a check asserts every promise of its rule's entry in docs/RULES.md that a client can
/// observe, the state the rule leaves as well as its answer. Each test breaks one promise alone (`RulePolicy`'s
/// `breaking(_:only:)`: the answer and the rule's other effects stay kept) and expects the check's assertion of it,
/// and no other, to say BROKEN. Before these assertions the checks said "kept" for each of these backends.
@Suite struct StateAfterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: Rule
        var effect: RulePolicy.Effect
        /// Words of the assertion that must catch it, from its `expected`.
        var assertion: String

        var testDescription: String { "\(rule.rawValue) \(effect)" }
    }

    static let cases: [Case] = [
        // "an account at the profile step moves on": the answer says so, a later read finds the step unchanged.
        Case(rule: .profileSaved, effect: .onboardingStepStored, assertion: "onboarding_step: past profile"),
        // onboarding.continued: the same, for leaving a later step.
        Case(rule: .onboardingContinued, effect: .onboardingStepStored, assertion: "onboarding_step read back"),
        // "the account moves past the recovery email step".
        Case(
            rule: .onboardingRecoveryEmailSet, effect: .onboardingStepStored, assertion: "onboarding_step read back"),
        // "an account waiting on onboarding's verify_email step moves on".
        Case(rule: .registerConfirmed, effect: .onboardingStepStored, assertion: "past verify_email"),
        // "every session of the account ends (their refresh tokens with them)".
        Case(rule: .passwordReset, effect: .refreshTokensEnd, assertion: "the refresh token of a session from before"),
        // "The session's aal1 access and refresh tokens die".
        Case(rule: .twoFactorPassed, effect: .refreshTokensEnd, assertion: "the one-factor refresh token"),
        // "the step of the code is recorded, so it cannot pass a sign-in afterwards".
        Case(rule: .twoFactorEnabled, effect: .enablingStepRecorded, assertion: "the code that turned two-factor on"),
        // "signed out at once, refresh token included".
        Case(rule: .sessionSignedOut, effect: .refreshTokensEnd, assertion: "the other device's refresh token"),
        // "every sign-in of the account but the caller's is signed out".
        Case(rule: .sessionSignedOutOthers, effect: .refreshTokensEnd, assertion: "the other device's refresh token"),
        // "A session with limited access stays limited: refreshing is no way out of a recovery."
        Case(rule: .sessionRefreshed, effect: .limitedStaysLimited, assertion: "the refreshed limited session"),
        // "A new setup replaces a pending one."
        Case(rule: .twoFactorSetupStarted, effect: .pendingSetupReplaced, assertion: "the first setup's code"),
        // "every session of the account ends (whoever changed it is out)".
        Case(rule: .emailReverted, effect: .changeSessionEnds, assertion: "the session the change's link issued"),
        // password.reset: "No session is issued": signed in afterwards, the account lists one session.
        Case(rule: .passwordReset, effect: .noSessionIssued, assertion: "the reset issues none"),
        // email.changed: "a new session is issued", and it works.
        Case(rule: .emailChanged, effect: .issuedSessionWorks, assertion: "the session the email's link issued"),
        // two_factor.passed: "in the same sign-in (Active sessions lists one session)".
        Case(rule: .twoFactorPassed, effect: .sameSignIn, assertion: "the new pair in the same sign-in"),
        // signin.signed_up: "a new athlete account, starting onboarding at its first step", stored.
        Case(
            rule: .signInSignedUp, effect: .onboardingStepStored, assertion: "onboarding_step read back: profile"),
        // "the code is dead; … a resend may replace it".
        Case(
            rule: .signInCodeIncorrectExhausted, effect: .killedCodeReplaceable,
            assertion: "a resend of the killed code"),
        // "the last wrong code kills the code; a resend may replace it".
        Case(
            rule: .otpCodeIncorrectExhausted, effect: .killedCodeReplaceable, assertion: "a resend of the killed code"),
        // signin.code_resent: "a used or replaced request may not" be resent.
        Case(
            rule: .signInCodeResent, effect: .replacedRequestClosed,
            assertion: "a resend of the request a new one replaced"),
        // disconnect.done: "the link's grant is revoked with every id token not yet used for it".
        Case(
            rule: .disconnectDone, effect: .unusedTokensRevoked,
            assertion: "a Google id token minted before the disconnect"),
        // two_factor.disabled: "the secret, the recovery codes and any pending setup are deleted".
        Case(rule: .twoFactorDisabled, effect: .secretsDeleted, assertion: "an old recovery code"),
        // email.link_resent: "up to 24 h (`LinkLifetimes.emailChangeResendable`) after its link expired".
        Case(rule: .emailLinkResent, effect: .resendableForADayAfterExpiry, assertion: "after the link expired"),
    ]

    @Test(arguments: cases)
    func aPromiseBrokenAloneIsReportedBrokenByItsAssertion(_ promise: Case) async throws {
        let run = try await conform(
            Selection(only: [promise.rule.rawValue]), policy: .breaking(promise.rule, only: promise.effect))
        guard case .broken(let expected, let got, _) = run.verdict(promise.rule) else {
            Issue.record("\(promise.rule.rawValue): \(String(describing: run.verdict(promise.rule)))")
            return
        }
        #expect(expected.contains(promise.assertion), "caught by another assertion: \(expected), got \(got)")
    }
}
