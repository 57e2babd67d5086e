import AccessCore
import Testing

/// The catalogue of rule ids the backend writes into its journal (docs/RULES.md says each in full).
@Suite struct RuleTests {
    /// `family.name` in lower snake case; `ok` and `invalid_fault` are the two ids from before families.
    @Test func everyIdIsFamilyDotNameInSnakeCase() {
        let word = #/[a-z][a-z0-9]*(_[a-z0-9]+)*/#
        for rule in Rule.allCases where rule != .ok && rule != .invalidFault {
            let parts = rule.rawValue.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count == 2, "\(rule.rawValue)")
            #expect(parts.allSatisfy { (try? word.wholeMatch(in: String($0))) != nil }, "\(rule.rawValue)")
            #expect(String(parts[0]) == rule.family.rawValue, "\(rule.rawValue) is not in \(rule.family)")
        }
        #expect(Rule.ok.family == .ok)
        #expect(Rule.invalidFault.family == .admin)
    }

    @Test func everyFamilyHasRules() {
        let used = Set(Rule.allCases.map(\.family))
        #expect(used == Set(Rule.Family.allCases))
    }

    @Test func everySummaryIsOneShortSentence() {
        for rule in Rule.allCases {
            let summary = rule.summary
            #expect(!summary.contains("\n") && summary.hasSuffix(".") && summary.count <= 100, "\(rule.rawValue)")
        }
    }

    /// The journal has written these ids since before the catalogue; a rename would break QA's saved
    /// journals and scripts, so a few are pinned here as written.
    @Test func theIdsAreTheJournalsOwn() {
        #expect(Rule.rateLimitResendWindow.rawValue == "rate_limit.resend_window")
        #expect(Rule.sessionRefreshReused.rawValue == "session.refresh_reused")
        #expect(Rule.faultCommitThenFail.rawValue == "fault.commit_then_fail")
        #expect(Rule.signInCodeSent.rawValue == "signin.code_sent")
        #expect(Rule.invalidFault.rawValue == "invalid_fault")
        #expect(Rule.faultBody.rawValue == "fault.body")
        #expect(Rule.faultMalformed.rawValue == "fault.malformed")
        #expect(Rule.faultReset.rawValue == "fault.reset")
        #expect(Rule.sessionRevoked.rawValue == "session.revoked")
        #expect(Rule.twoFactorRequired.rawValue == "two_factor.required")
        #expect(Rule.passkeyCloned.rawValue == "passkey.cloned")
        #expect(Rule.allCases.count == 183)
    }
}
