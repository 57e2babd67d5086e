import AccessBackend
import AccessBackendTesting
import AccessConform
import AccessCore
import Foundation
import Testing

/// Issue 32: `accessdeck conform` against the reference backend, which keeps every rule, and against the
/// same backend with one rule switched off, which each check must catch.
@Suite struct ConformTests {
    @Test func everyCheckedRuleIsKeptByTheReferenceBackend() async throws {
        let run = try await conform()
        #expect(run.checked.count == Catalogue.checks.count)
        // Rules no request provokes honestly are skipped with the reason, never kept; admin.unauthorized needs
        // a backend started with an admin token (the next test).
        let unprovokable = Self.unprovokable.union([.adminUnauthorized])
        for result in run.checked {
            if unprovokable.contains(result.rule) {
                guard case .skipped = result.verdict else {
                    Issue.record("\(result.rule.rawValue): \(result.verdict)")
                    continue
                }
            } else {
                #expect(result.verdict == .kept, "\(result.rule.rawValue): \(result.verdict)")
            }
        }
        #expect(run.brokenCount == 0)
        // Rules without a check are listed apart, never as kept.
        let unchecked = Set(Rule.allCases).subtracting(Catalogue.checks.map(\.rule)).subtracting([.ok])
        #expect(Set(run.results.filter { $0.verdict == .notChecked }.map(\.rule)) == unchecked)
        #expect(
            run.summary.contains(
                "\(run.checked.count - unprovokable.count) kept, 0 broken, \(unprovokable.count) skipped"))
        #expect(run.summary.contains("\(unchecked.count) not checked (no check written)"))
    }

    /// Rules no client can provoke on the reference backend: a 500 or the framework's 405 on purpose, the server's
    /// hourly cap from one address, a world with no scenario, a broken scenario file on the server's disk, an
    /// outbox message the contract cannot describe.
    static let unprovokable: Set<Rule> = [
        .httpInternal, .httpMethod, .rateLimitGlobalHourly, .adminNoScenario, .adminScenarioInvalid,
        .adminOutboxInvalid,
    ]

    /// Every rule has a check now: none is "not checked".
    @Test func everyRuleHasACheck() {
        let unchecked = Set(Rule.allCases).subtracting(Catalogue.checks.map(\.rule)).subtracting([.ok])
        #expect(unchecked.isEmpty, "\(unchecked.map(\.rawValue).sorted())")
    }

    /// The skipped checks say why, exactly, and are skipped however the run is set up.
    @Test func theUnprovokableAdminRulesAreSkippedSayingWhy() async throws {
        let run = try await conform(
            Selection(only: ["admin.no_scenario", "admin.scenario_invalid", "admin.outbox_invalid"]))
        #expect(
            run.verdict(.adminScenarioInvalid)
                == .skipped("needs a broken scenario file on the server's disk, which no request can write"))
        for rule in [Rule.adminNoScenario, .adminOutboxInvalid] {
            guard case .skipped(let why) = run.verdict(rule) else {
                Issue.record("\(rule.rawValue): \(String(describing: run.verdict(rule)))")
                continue
            }
            #expect(why.contains("no request"), "\(why)")
        }
    }

    /// A base URL that names a world is run in as given (the app's panel runs in /w/conform): the worlds admin
    /// API's checks say that, not that the backend serves no worlds.
    @Test func inAWorldTheURLNamesTheWorldsChecksSaySo() async throws {
        let run = try await conform(Selection(only: ["admin.world_name"]), baseWorld: "panel")
        #expect(
            run.verdict(.adminWorldName)
                == .skipped(
                    "the run is in world panel, as its URL names: the worlds admin API is checked from the server's "
                        + "bare URL"))
    }

    /// The cap is reached by opening worlds up to it, which are deleted afterwards; on a server whose cap is far
    /// off the check is skipped with the number it would need.
    @Test func theWorldLimitIsReachedOnlyWhenLittleRoomIsLeft() async throws {
        let kept = try await conform(
            Selection(only: ["admin.world_limit"]),
            after: { backend in
                let worlds = try await backend.send(.GET, "/_admin/worlds")
                #expect(worlds.headers.first(name: "X-Max-Worlds") == "\(conformMaxWorlds)")
                #expect(!String(decoding: worlds.data, as: UTF8.self).contains("conform-"))
            })
        #expect(kept.verdict(.adminWorldLimit) == .kept)
        let far = try await conform(Selection(only: ["admin.world_limit"]), maxWorlds: 200)
        #expect(
            far.verdict(.adminWorldLimit)
                == .skipped(
                    "reaching --max-worlds 200 would open 199 more worlds on a server others may be using "
                        + "(conform opens at most \(Catalogue.mostWorldsToFill))"))
    }

    /// The same catalogue against a reference backend that wants an admin token, run with it: every check but
    /// the three no run provokes is kept, admin.unauthorized included.
    @Test func withAnAdminTokenEveryCheckIsKeptAndAWrongTokenIsRefused() async throws {
        let run = try await conform(adminToken: "conform-admin-token-0123456789")
        let skipped = run.checked.filter { if case .skipped = $0.verdict { true } else { false } }.map(\.rule)
        #expect(Set(skipped) == Self.unprovokable)
        #expect(run.verdict(.adminUnauthorized) == .kept)
        #expect(run.brokenCount == 0)
    }

    /// One rule per family broken by the backend's rule policy (conform's self-tests' own): its check says broken.
    @Test(arguments: [
        Rule.signInCodeIncorrectExhausted, .otpExpired, .rateLimitCooldown, .rateLimitResendWindow,
        .sessionRefreshReused, .reauthGranted, .linkExpired, .disconnectLastMethod, .deleteBlocked,
        // The request gate's rules are decided before any fault could answer for them.
        .httpPathNotCanonical, .httpHostMissing, .httpHostNotAllowed, .httpOriginNotAllowed, .recoveryCooldown,
        .recoveryDailyCap,
        .rateLimitClientAddressHourly, .rateLimitAccountHourly,
        // The setup's check runs before the grant's, so a setup that ignores it answers the missing grant.
        .twoFactorAlreadyEnabled,
        // The worlds admin API, checked from the run's own world; world_limit with the server's cap small.
        .adminWorldDefault, .adminWorldLimit,
        // Admin paths are never under a fault: the switch mints a QA session for a deleted account.
        .adminAccountDeleted,
        // The fault itself is what is checked: the switch makes a timeout fault answer anyway.
        .faultTimeout,
    ])
    func aRuleSwitchedOffIsReportedBroken(rule: Rule) async throws {
        let run = try await conform(Selection(only: [rule.rawValue]), policy: .breaking(rule))
        guard case .broken(let expected, let got, let evidence) = run.verdict(rule) else {
            Issue.record("\(rule.rawValue): \(String(describing: run.verdict(rule)))")
            return
        }
        #expect(!expected.isEmpty && !got.isEmpty && !evidence.isEmpty)
        #expect(ConformReport.text(run).contains("BROKEN"))
    }

    /// Issue 32: the run has a world of its own, deleted afterwards; the default world keeps the scenario someone
    /// loaded into it, its clock and its outbox.
    @Test func aRunLeavesTheDefaultWorldAsItWas() async throws {
        var before: (state: String, outbox: Int) = ("", 0)
        let rules = ["signin.signed_up", "two_factor.passed", "admin.world_exists"]
        let scenario = Data(#"{"name":"two-factor"}"#.utf8)
        let run = try await conform(
            Selection(only: rules),
            before: { backend in
                #expect(try await backend.send(.POST, "/_admin/scenario", raw: scenario).status == 200)
                before = try await Self.defaultWorld(backend)
            }, inWorld: true,
            after: { backend in
                let after = try await Self.defaultWorld(backend)
                #expect(after.state == before.state)
                #expect(after.outbox == before.outbox)
                let worlds = try await backend.send(.GET, "/_admin/worlds")
                #expect(!String(decoding: worlds.data, as: UTF8.self).contains("conform-"))
            })
        for rule in rules { #expect(run.verdict(Rule(rawValue: rule)!) == .kept, "\(rule)") }
    }

    /// The default world's scenario, epoch and clock (`GET /_admin/state`), and how many messages its
    /// outbox holds.
    static func defaultWorld(_ backend: TestBackend) async throws -> (state: String, outbox: Int) {
        let state = try await backend.send(.GET, "/_admin/state")
        let object = try JSONSerialization.jsonObject(with: state.data) as? [String: Any]
        // Compared as text, so the clock's members are written in a fixed order: a dictionary's own description
        // follows the process's hash seed.
        let summary = ["scenario", "epoch", "clock"].map { key -> String in
            guard let members = object?[key] as? [String: Any] else { return "\(object?[key] ?? "absent")" }
            return members.keys.sorted().map { "\($0)=\(members[$0]!)" }.joined(separator: ",")
        }
        .joined(separator: " ")
        let outbox = try await backend.send(.GET, "/_admin/outbox")
        let messages = try JSONSerialization.jsonObject(with: outbox.data) as? [Any]
        return (summary, messages?.count ?? -1)
    }

    /// The same checks pass on the same backend with nothing switched off: the switch is what they catch.
    @Test func theSwitchedOffRulesAreKeptWithTheSwitchOff() async throws {
        let rules: [Rule] = [.signInCodeIncorrectExhausted, .sessionRefreshReused, .linkExpired]
        let run = try await conform(Selection(only: rules.map(\.rawValue)))
        for rule in rules { #expect(run.verdict(rule) == .kept, "\(rule.rawValue)") }
    }

    /// The http family has no switch: an injected fault makes an unknown path answer 200.
    @Test func aFaultThatAnswersAnUnknownPathIsReportedBroken() async throws {
        let run = try await conform(Selection(only: ["http.not_found"])) { backend in
            let faults = #"{"endpoints":[{"path":"/conform-no-such-endpoint","kind":"body","body":"{}"}]}"#
            let reply = try await backend.send(.POST, "/_admin/faults", raw: Data(faults.utf8))
            #expect(reply.status == 200)
        }
        guard case .broken = run.verdict(.httpNotFound) else {
            Issue.record("\(String(describing: run.verdict(.httpNotFound)))")
            return
        }
    }

    /// Families without a switch: a fault makes the endpoint the rule is decided on answer 200 `{}` without
    /// running, so its check must say broken (none of these checks sets itself up on that endpoint).
    @Test(arguments: [
        (Rule.deviceInvalid, "/auth/sign-in/code"), (.phoneInvalid, "/auth/sign-in/code"),
        (.emailInvalid, "/auth/sign-in/code"), (.recoveryLinkUnknown, "/auth/recovery/check"),
        (.recoveryAnswered, "/auth/recovery/start"), (.passwordResetAnswered, "/auth/password/reset"),
        (.connectProviderTokenInvalid, "/me/auth-methods/connect"),
        (.registerLinkSent, "/auth/register"), (.registerResendAnswered, "/auth/register/resend"),
        (.registerConfirmed, "/auth/register/confirm"), (.registerEmailTaken, "/auth/register"),
        (.loginSignedIn, "/auth/login"), (.loginCredentialsInvalid, "/auth/login"),
        (.loginEmailUnverified, "/auth/login"), (.loginLocked, "/auth/login"), (.rateLimitLoginLockout, "/auth/login"),
        (.reauthPasswordIncorrect, "/auth/reauth/password"), (.rateLimitPasswordAttempts, "/auth/reauth/password"),
        (.sessionSignedOutOthers, "/me/sessions/revoke-others"), (.sessionRevoked, "/me/sessions/revoke-others"),
        (.sessionNotFound, "/me/sessions/conform_probe_session"),
        (.usernameAvailable, "/auth/username-available"), (.usernameTaken, "/auth/username-available"),
        (.usernameInvalid, "/auth/username-available"), (.profileSaved, "/me/profile"),
        (.profilePhotoInvalid, "/me/profile"), (.httpInvalidField, "/auth/sign-in/code"),
        (.httpInvalidParameter, "/auth/username-available"), (.httpMethodNotAllowed, "/auth/sign-in/code"),
        (.otpSent, "/auth/phone/request-otp"), (.otpResent, "/auth/phone/resend-otp"),
        (.otpRequestClosed, "/auth/phone/resend-otp"), (.otpReverifyNotLimited, "/auth/phone/request-otp"),
        (.phoneTaken, "/auth/phone/request-otp"), (.emailAvailable, "/auth/email-available"),
        (.emailTaken, "/auth/email/add-with-password"), (.emailUnchanged, "/auth/email/request-change"),
        (.emailChangeWithoutEmail, "/auth/email/request-change"), (.emailAddWithEmail, "/auth/email/add-with-password"),
        (.emailNothingPending, "/auth/email/resend"), (.emailLinkSent, "/auth/email/add-with-password"),
        (.emailChanged, "/auth/email/verify"), (.reauthGrantByTarget, "/auth/password/change"),
        (.passwordChanged, "/auth/password/change"), (.passwordInvalid, "/auth/password/change"),
        (.passwordTooLong, "/auth/password/change"), (.passwordWithoutEmail, "/auth/password/change"),
        (.passwordResetLinkLive, "/auth/password/reset/check"), (.passwordReset, "/auth/password/reset/complete"),
        (.recoveryLinkLive, "/auth/recovery/check"), (.recoveryLinkExpired, "/auth/recovery/check"),
        (.recoveryCredentialsInvalid, "/auth/recovery/complete"), (.recoveryLocked, "/auth/recovery/complete"),
        (.recoverySignedInLimited, "/auth/recovery/complete"), (.recoveryLimitedAccess, "/auth/email/request-change"),
        (.onboardingProfileRequired, "/me/onboarding/continue"), (.onboardingStepNotReached, "/me/onboarding/continue"),
        (.onboardingContinued, "/me/onboarding/continue"), (.onboardingRecoveryEmailSet, "/me/recovery-email"),
        (.onboardingEmailAlreadySet, "/me/recovery-email"), (.onboardingAlreadyComplete, "/me/onboarding/continue"),
        (.signInDisplayNameInvalid, "/auth/sign-in/code/verify"),
        (.linkSent, "/auth/reauth/email"), (.emailLinkResent, "/auth/email/resend"),
        (.emailReverted, "/auth/email/revert"),
        (.connectDone, "/me/auth-methods/connect"), (.connectAlreadyLinked, "/me/auth-methods/connect"),
        (.connectProviderTaken, "/me/auth-methods/connect"), (.disconnectDone, "/me/auth-methods/disconnect"),
        (.reauthProviderTokenInvalid, "/auth/reauth/social"), (.holdProviderRecentlyDeleted, "/auth/sign-in/provider"),
        // Two-factor (issue 31): conform sets it up itself with the secret the setup answers.
        (.twoFactorSetupStarted, "/me/two-factor/setup"), (.twoFactorSetupNotFound, "/me/two-factor/confirm"),
        (.twoFactorEnabled, "/me/two-factor/confirm"), (.twoFactorNotEnabled, "/me/two-factor"),
        (.twoFactorRequired, "/auth/me"), (.twoFactorCodeIncorrect, "/auth/two-factor/verify"),
        (.twoFactorCodeReplayed, "/auth/two-factor/verify"), (.twoFactorLocked, "/auth/two-factor/verify"),
        (.twoFactorPassed, "/auth/two-factor/verify"), (.twoFactorRecoveryCodeUsed, "/auth/two-factor/recovery"),
        (.twoFactorRecoveryCodeInvalid, "/auth/two-factor/recovery"),
        (.twoFactorRecoveryCodesRegenerated, "/me/two-factor/recovery-codes"),
        (.twoFactorDisabled, "/me/two-factor"), (.twoFactorSetupExhausted, "/me/two-factor/confirm"),
        (.rateLimitTwoFactorAttempts, "/auth/two-factor/recovery"),
    ])
    func aRuleAFaultAnswersForIsReportedBroken(rule: Rule, path: String) async throws {
        let run = try await conform(Selection(only: [rule.rawValue])) { backend in
            let faults = #"{"endpoints":[{"path":"\#(path)","kind":"body","body":"{}"}]}"#
            let reply = try await backend.send(.POST, "/_admin/faults", raw: Data(faults.utf8))
            #expect(reply.status == 200)
        }
        guard case .broken = run.verdict(rule) else {
            Issue.record("\(rule.rawValue): \(String(describing: run.verdict(rule)))")
            return
        }
    }

    @Test func onlyAndSkipTakeRuleIdsAndFamilies() {
        let selection = Selection(only: ["signin", "session.invalid"], skip: ["signin.signed_up"])
        #expect(selection.includes(.signInCodeIncorrect))
        #expect(selection.includes(.sessionInvalid))
        #expect(!selection.includes(.signInSignedUp))
        #expect(!selection.includes(.sessionRefreshed))
        #expect(Selection(only: ["nonsense", "signin"]).unknownNames == ["nonsense"])
    }
}
