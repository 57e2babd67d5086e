import AccessCore
import Foundation

/// The authenticator of an account a check turned two-factor on for: conform computes its codes from the secret
/// the setup answer gave (AccessCore's `TOTP`), so these checks need no admin API, only the backend's time.
final class Authenticator: @unchecked Sendable {
    let totp: TOTP
    var recoveryCodes: [String]
    /// The code that turned two-factor on: its step was accepted once, so it cannot pass again.
    let enablingCode: String
    /// The last step this run used: the backend refuses a step not after the last accepted one.
    private var lastStep: Int64

    init(totp: TOTP, recoveryCodes: [String], enablingCode: String, step: Int64) {
        self.totp = totp
        self.recoveryCodes = recoveryCodes
        self.enablingCode = enablingCode
        self.lastStep = step
    }

    /// A code of the step of the backend's now, or of the one after when now's was used (the drift takes it);
    /// when that one is used too, the step passes first.
    func nextCode(_ context: CheckContext) async throws -> String {
        var now = TOTP.step(at: try await context.backendNow())
        if lastStep + 1 > now + TOTP.driftSteps {
            try await context.pass(TOTP.period)
            now = TOTP.step(at: try await context.backendNow())
        }
        lastStep = max(lastStep + 1, now)
        return totp.code(atStep: lastStep)
    }

    /// A code of no step near now.
    func wrongCode(_ context: CheckContext) async throws -> String {
        try await Self.wrongCode(totp, context)
    }

    static func wrongCode(_ totp: TOTP, _ context: CheckContext) async throws -> String {
        let now = TOTP.step(at: try await context.backendNow())
        let near = Set((now - 2...now + 2).map { totp.code(atStep: $0) })
        var candidate = Catalogue.wrong(totp.code(atStep: now))
        while near.contains(candidate) { candidate = Catalogue.wrong(candidate) }
        return candidate
    }
}

/// An account with two-factor on: `main` turned it on (aal2), `other` signed in before that and has passed
/// one factor only (it must pass the second step on its next call).
struct TwoFactorAccount {
    var main: Account
    var other: Account
    var authenticator: Authenticator
    /// The confirmation's answer, for the check of `two_factor.enabled`.
    var enabled: Exchange
}

extension CheckContext {
    /// The backend's now: the reference backend's clock, else this machine's (an authenticator app's too).
    func backendNow() async throws -> Date {
        guard let reference else { return try await settings.now() }
        return try await reference.now()
    }

    /// A new account with two-factor turned on by the setup and its first code. Its second session is signed
    /// in before, so no third code has to wait for the send cooldown.
    func twoFactorAccount() async throws -> TwoFactorAccount {
        let main = try await newAccount()
        try await pass(SendLimits.cooldown)
        let other = try await signIn(main.channel, main.destination)
        let grant = try await grant(main)
        let started = try await setup(
            await http.send("POST", "/me/two-factor/setup", token: main.access, reauth: grant), 201,
            doing: "setting two-factor up")
        guard let secret = started.object?["secret"] as? String, let totp = TOTP(base32: secret) else {
            throw CheckStop.cannotTell("the two-factor setup answer has no secret")
        }
        let step = TOTP.step(at: try await backendNow())
        let code = totp.code(atStep: step)
        let enabled = try await http.post("/me/two-factor/confirm", ["code": code], token: main.access)
        try refuseUnknowableSetup(enabled)
        let codes = enabled.object?["recovery_codes"] as? [String] ?? []
        return TwoFactorAccount(
            main: main, other: other,
            authenticator: Authenticator(totp: totp, recoveryCodes: codes, enablingCode: code, step: step),
            enabled: enabled)
    }

    /// The confirmation is the check itself for `two_factor.enabled`; for the others anything but 200 means the
    /// rule under check was never reached.
    private func refuseUnknowableSetup(_ confirmed: Exchange) throws {
        if confirmed.status != 200 {
            throw CheckStop.cannotTell("confirming the two-factor setup answered \(confirmed.summary)")
        }
    }

    /// "Verify it's you" with the authenticator's code (`reauth.granted` by the authenticator).
    func authenticatorGrant(_ account: TwoFactorAccount) async throws -> String {
        let granted = try await setup(
            await http.post(
                "/auth/reauth/authenticator", ["code": try await account.authenticator.nextCode(self)],
                token: account.main.access), 200, doing: "verifying it's you with the authenticator")
        guard let grant = granted.object?["reauth_token"] as? String else {
            throw CheckStop.cannotTell("the authenticator re-auth gave no reauth_token")
        }
        return grant
    }

    func verifySecondStep(_ account: Account, code: String) async throws -> Exchange {
        try await http.post("/auth/two-factor/verify", ["code": code], token: account.access)
    }

    func useRecoveryCode(_ account: Account, _ code: String) async throws -> Exchange {
        try await http.post("/auth/two-factor/recovery", ["recovery_code": code], token: account.access)
    }

    /// A passed second step answers a session at aal2 whose access token works.
    func requireSignedIn(_ answer: Exchange, _ what: String) async throws {
        guard let session = answer.object?["session"] as? [String: Any],
            let access = session["access_token"] as? String
        else {
            throw CheckStop.broken(expected: "\(what): a session", got: "no session", evidence: [answer])
        }
        try await expect(await http.get("/auth/me", token: access), 200, nil, "GET /auth/me with the new access token")
    }
}

extension Catalogue {
    static let twoFactor: [Check] = [
        Check(
            .twoFactorSetupExhausted,
            "\(TwoFactorLimits.maxWrongCodes) wrong first codes end the pending setup: the right one then finds none",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            let started = try await context.setup(
                await context.http.send("POST", "/me/two-factor/setup", token: account.access, reauth: grant), 201,
                doing: "setting two-factor up")
            guard let secret = started.object?["secret"] as? String, let totp = TOTP(base32: secret) else {
                throw CheckStop.cannotTell("the two-factor setup answer has no secret")
            }
            var last: Exchange?
            for _ in 1...TwoFactorLimits.maxWrongCodes {
                last = try await context.expect(
                    await context.http.post(
                        "/me/two-factor/confirm", ["code": try await Authenticator.wrongCode(totp, context)],
                        token: account.access), 401, "code_incorrect", "a wrong first code")
            }
            let remaining = last?.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == 0, expected: "attempts_remaining: 0 after \(TwoFactorLimits.maxWrongCodes) wrong codes",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", last!)
            let code = totp.code(at: try await context.backendNow())
            try await context.expect(
                await context.http.post("/me/two-factor/confirm", ["code": code], token: account.access), 404,
                "two_factor_setup_not_found", "the right first code after \(TwoFactorLimits.maxWrongCodes) wrong ones",
                evidence: [last!],
                present: true)
        },
        Check(
            .twoFactorSetupStarted,
            "Setting up an authenticator needs Verify it's you, answers a secret and replaces a pending setup",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let unverified = try await context.expect(
                await context.http.send("POST", "/me/two-factor/setup", token: account.access), 403, "reauth_required",
                "setting two-factor up without Verify it's you")
            let grant = try await context.grant(account)
            let started = try await context.expect(
                await context.http.send("POST", "/me/two-factor/setup", token: account.access, reauth: grant), 201, nil,
                "setting two-factor up after Verify it's you", evidence: [unverified])
            let secret = started.object?["secret"] as? String
            let uri = started.object?["otpauth_uri"] as? String
            try context.require(
                secret.flatMap(TOTP.init(base32:)) != nil && uri?.hasPrefix("otpauth://totp/") == true
                    && uri?.contains(secret ?? "-") == true,
                expected: "a Base32 secret and its otpauth://totp URI", got: "no such pair", started)
            // "A new setup replaces a pending one": the first secret's code no longer confirms, the second's does.
            let again = try await context.expect(
                await context.http.send("POST", "/me/two-factor/setup", token: account.access, reauth: grant), 201, nil,
                "a second setup while the first is pending", evidence: [started])
            guard let first = secret.flatMap(TOTP.init(base32:)),
                let second = (again.object?["secret"] as? String).flatMap(TOTP.init(base32:))
            else { throw CheckStop.cannotTell("the second setup answered no Base32 secret") }
            let step = TOTP.step(at: try await context.backendNow())
            guard first.code(atStep: step) != second.code(atStep: step) else {
                throw CheckStop.cannotTell("both secrets give the same code now")
            }
            let stale = try await context.expect(
                await context.http.post(
                    "/me/two-factor/confirm", ["code": first.code(atStep: step)], token: account.access), 401,
                "code_incorrect", "the first setup's code once a second setup replaced it", evidence: [again])
            try await context.expect(
                await context.http.post(
                    "/me/two-factor/confirm", ["code": second.code(atStep: step)], token: account.access), 200, nil,
                "the second setup's code", evidence: [stale])
        },
        Check(.twoFactorSetupNotFound, "Confirming with no setup pending answers 404", needs: .init(messages: true)) {
            context in
            let account = try await context.newAccount()
            try await context.expect(
                await context.http.post("/me/two-factor/confirm", ["code": "123456"], token: account.access), 404,
                "two_factor_setup_not_found", "confirming two-factor with no setup started")
        },
        Check(
            .twoFactorEnabled,
            "The setup's first code turns two-factor on with \(TwoFactorLimits.recoveryCodeCount) recovery codes, and is spent",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.twoFactorAccount()
            let codes = account.authenticator.recoveryCodes
            try context.require(
                codes.count == TwoFactorLimits.recoveryCodeCount && Set(codes).count == codes.count,
                expected: "\(TwoFactorLimits.recoveryCodeCount) different recovery codes",
                got: "\(codes.count) recovery codes", account.enabled)
            let stepped = try await context.expect(
                await context.http.get("/auth/me", token: account.other.access), 403, "second_factor_required",
                "the account's other session once two-factor is on", evidence: [account.enabled])
            // The step of the code that turned it on is recorded: that code cannot pass a sign-in's step afterwards.
            try await context.expect(
                await context.verifySecondStep(account.other, code: account.authenticator.enablingCode), 401,
                "code_incorrect", "the code that turned two-factor on, as the other session's second step",
                evidence: [account.enabled, stepped])
        },
        Check(
            .twoFactorPassed, "The authenticator's code passes the step with a new pair; the one-factor pair dies",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.twoFactorAccount()
            let (before, _) = try await context.listedSessions(
                account.main.access, "the account's sessions before the step")
            let passed = try await context.expect(
                await context.verifySecondStep(account.other, code: account.authenticator.nextCode(context)), 200, nil,
                "the authenticator's code")
            try await context.requireSignedIn(passed, "the passed step")
            try await context.expect(
                await context.http.get("/auth/me", token: account.other.access), 401, nil,
                "the one-factor access token after the step passed", evidence: [passed])
            try await context.expect(
                await context.refresh(account.other.refresh), 401, nil,
                "the one-factor refresh token after the step passed", evidence: [passed])
            // "in the same sign-in (Active sessions lists one session)": the step adds no entry to the list.
            let (after, list) = try await context.listedSessions(
                account.main.access, "the account's sessions after the step", evidence: [passed])
            try context.require(
                after == before,
                expected: "Active sessions: \(before) sign-ins still, the new pair in the same sign-in",
                got: "\(after) sign-ins", passed, list)
        },
        Check(
            .twoFactorRecoveryCodeInvalid, "A recovery code the account never had is refused with the tries left",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.twoFactorAccount()
            let answer = try await context.expect(
                await context.useRecoveryCode(account.other, "aaaaa-aaaaa"), 401, "code_incorrect",
                "a recovery code never issued")
            let remaining = answer.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == TwoFactorLimits.maxWrongCodes - 1,
                expected: "attempts_remaining: \(TwoFactorLimits.maxWrongCodes - 1)",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", answer)
        },
        Check(
            .twoFactorRecoveryCodesRegenerated,
            "New recovery codes (verified with the authenticator) replace the old ones",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.twoFactorAccount()
            let grant = try await context.authenticatorGrant(account)
            let renewed = try await context.expect(
                await context.http.send(
                    "POST", "/me/two-factor/recovery-codes", token: account.main.access, reauth: grant),
                200, nil, "new recovery codes after Verify it's you")
            let codes = renewed.object?["recovery_codes"] as? [String] ?? []
            let old = account.authenticator.recoveryCodes
            guard let oldCode = old.first else { throw CheckStop.cannotTell("the confirmation gave no recovery codes") }
            try context.require(
                codes.count == TwoFactorLimits.recoveryCodeCount && Set(codes).isDisjoint(with: old),
                expected: "\(TwoFactorLimits.recoveryCodeCount) codes, none of the old ones",
                got: "\(codes.count) codes", renewed)
            let refused = try await context.expect(
                await context.useRecoveryCode(account.other, oldCode), 401, "code_incorrect",
                "an old recovery code once new ones were made", evidence: [renewed])
            try await context.expect(
                await context.useRecoveryCode(account.other, codes[0]), 200, nil, "a new recovery code",
                evidence: [refused])
        },
        Check(
            .twoFactorDisabled,
            "Turning two-factor off ends the second step and deletes the secret and the recovery codes",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown)
        ) { context in
            let account = try await context.twoFactorAccount()
            let grant = try await context.authenticatorGrant(account)
            let off = try await context.expect(
                await context.http.send("DELETE", "/me/two-factor", token: account.main.access, reauth: grant), 204,
                nil,
                "turning two-factor off after Verify it's you")
            let stepless = try await context.expect(
                await context.http.get("/auth/me", token: account.other.access), 200, nil,
                "the one-factor session once two-factor is off", evidence: [off])
            // "the secret, the recovery codes and any pending setup are deleted": nothing of the old authenticator
            // passes a second step, and setting up again starts over with a new secret.
            guard let recoveryCode = account.authenticator.recoveryCodes.first else {
                throw CheckStop.cannotTell("the confirmation gave no recovery codes")
            }
            try await context.expect(
                await context.useRecoveryCode(account.other, recoveryCode), 409, "two_factor_not_enabled",
                "an old recovery code once two-factor is off", evidence: [off, stepless])
            try await context.expect(
                await context.verifySecondStep(account.other, code: account.authenticator.nextCode(context)), 409,
                "two_factor_not_enabled", "an old authenticator code once two-factor is off", evidence: [off])
            let regrant = try await context.grant(account.main)
            let again = try await context.expect(
                await context.http.send("POST", "/me/two-factor/setup", token: account.main.access, reauth: regrant),
                201, nil, "setting two-factor up again", evidence: [off])
            let secret = again.object?["secret"] as? String
            try context.require(
                secret != nil && secret != account.authenticator.totp.base32,
                expected: "a new secret when two-factor is set up again", got: "the old secret", again)
        },
    ]
}
