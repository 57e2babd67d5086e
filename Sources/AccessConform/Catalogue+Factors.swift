import AccessCore
import Foundation

/// "Verify it's you" by each method, password locks, and the second factor on each operation that takes a code.
extension Catalogue {
    static let factorRoads: [Check] = grantRoads + lockRoads + twoFactorRoads

    /// A grant by the method `operation` verifies with, and the account's session it is for.
    static func grant(
        by operation: ContractOperation, _ context: CheckContext
    ) async throws -> (grant: Exchange, access: String) {
        switch operation {
        case .reauthPassword:
            let (email, password) = try await registered(context)
            let account = try await signedIn(context, email, password)
            return (
                try await context.setup(await passwordReauth(context, account, password), 200, doing: "by password"),
                account.access
            )
        case .reauthSocial:
            let account = try await context.newAccount()
            let subject = freshSubject()
            try await context.setup(
                await connectGoogle(context, account, subject: subject, reauth: context.grant(account)), 200,
                doing: "connecting Google")
            let token = try await googleToken(context, subject: subject)
            return (
                try await context.setup(
                    await context.http.post(
                        "/auth/reauth/social", ["provider": "google", "id_token": token], token: account.access), 200,
                    doing: "verifying it's you with Google"), account.access
            )
        case .reauthPasskey:
            var (account, passkey) = try await passkeyAccount(context)
            return (
                try await context.setup(
                    await passkeyReauth(context, account, &passkey), 200, doing: "verifying it's you with a passkey"),
                account.access
            )
        case .reauthAuthenticator:
            let account = try await context.twoFactorAccount()
            return (
                try await context.setup(
                    await context.http.post(
                        "/auth/reauth/authenticator", ["code": try await account.authenticator.nextCode(context)],
                        token: account.main.access), 200, doing: "verifying it's you with the authenticator"),
                account.main.access
            )
        default:
            let account = try await context.account(.email)
            try await context.pass(SendLimits.cooldown)
            try await context.setup(
                await context.http.send("POST", "/auth/reauth/email", token: account.access), 202, 200,
                doing: "asking for a re-auth link")
            let link = try await context.messages.latest(.link, to: account.destination)
            return (
                try await context.setup(
                    await context.http.post("/auth/reauth/email/confirm", ["token": link], token: account.access), 200,
                    doing: "opening the re-auth link"), account.access
            )
        }
    }

    static let grantRoads: [Check] = [
        Check(
            .reauthGranted,
            "Verify it's you by each method opens a window of \(time(ReauthRules.window)), and not longer",
            needs: .init(
                messages: true, time: 2 * SendLimits.cooldown + ReauthRules.window + 1,
                longestWait: ReauthRules.window)
        ) { context, operation in
            if operation == .reauthSocial { try context.needsProviderTokens() }
            let (granted, access) = try await grant(by: operation, context)
            guard let grant = granted.object?["reauth_token"] as? String else {
                throw CheckStop.broken(expected: "a reauth_token", got: "none", evidence: [granted])
            }
            // An id that is no session: without a live grant 403, with one 404 (the grant is checked first). The
            // 403 also shows the endpoint is there, so a later 404 is the backend's answer.
            let probe = "/me/sessions/\(probeSessionID)"
            let without = try await context.setup(
                await context.http.send("DELETE", probe, token: access), 403, doing: "signing a session out unverified")
            try await context.pass(ReauthRules.window - 1)
            let live = try await context.expect(
                await context.http.send("DELETE", probe, token: access, reauth: grant), 404, "not_found",
                "a grant 1 s before its \(time(ReauthRules.window)) ends (a session id nobody has: 404)",
                evidence: [granted, without])
            try await context.pass(2)
            try await context.expect(
                await context.http.send("DELETE", probe, token: access, reauth: grant), 403, "reauth_required",
                "the same grant 1 s after its \(time(ReauthRules.window))", evidence: [live], present: true)
        },
        Check(
            .reauthMethodUnavailable, "Verify it's you by a method the account lacks answers 422 method_unavailable",
            needs: .init(messages: true)
        ) { context, operation in
            let answer: Exchange
            switch operation {
            case .requestOtp:
                let account = try await context.newAccount(.email)
                answer = try await requestOTP(context, account, context.freshPhone(), "reauth")
            case .reauthPassword:
                answer = try await passwordReauth(context, try await context.newAccount(), freshPassword())
            case .reauthEmailSend:
                answer = try await context.http.send(
                    "POST", "/auth/reauth/email", token: try await context.newAccount().access)
            case .reauthSocial:
                // A valid token for some Google account: only the missing link can refuse it.
                let token = try await googleToken(context, subject: freshSubject())
                answer = try await context.http.post(
                    "/auth/reauth/social", ["provider": "google", "id_token": token],
                    token: try await context.newAccount().access)
            case .reauthPasskeyOptions:
                answer = try await context.http.post(
                    "/auth/reauth/passkey/options", [:], token: try await context.newAccount().access)
            default:
                answer = try await context.http.post(
                    "/auth/reauth/authenticator", ["code": "123456"], token: try await context.newAccount().access)
            }
            try await context.expect(
                answer, 422, "method_unavailable", "\(operation.name) for an account without that method")
        },
    ]

    /// Three wrong passwords for `email` in a row, through Log in and the recovery link alike.
    static func lockAddress(
        _ context: CheckContext, _ email: String, link: String?
    ) async throws -> Exchange {
        var last: Exchange?
        for attempt in 1...LoginLockRules.failuresBeforeLock + 1 {
            // The failures count together: the first through Log in, the others with the link when there is one.
            last =
                attempt == 1 || link == nil
                ? try await login(context, email, freshPassword())
                : try await completeRecovery(context, link!, freshPassword())
        }
        return last!
    }

    static let lockRoads: [Check] = [
        Check(
            .rateLimitLoginLockout, "A locked address refuses even the right password until the lock ends",
            needs: .init(messages: true, time: SendLimits.cooldown + LoginLockRules.firstLock)
        ) { context, operation in
            let (email, password) = try await registered(context)
            let link = operation == .completeRecovery ? try await recoveryLinkFor(context, email) : nil
            let locking = try await lockAddress(context, email, link: link)
            func right() async throws -> Exchange {
                if let link {
                    let answer = try await completeRecovery(context, link, password)
                    adoptSession(context, answer, email)
                    return answer
                }
                let answer = try await login(context, email, password)
                adoptSession(context, answer, email)
                return answer
            }
            try await context.pass(LoginLockRules.firstLock - 1)
            let refused = try await context.expectLimited(
                await right(), "login_lockout", "the right password 1 s before the lock ends")
            _ = locking
            try await context.pass(1)
            try await context.expect(
                await right(), 200, nil, "the right password once the lock ended", evidence: [refused])
        },
        Check(
            .rateLimitTwoFactorAttempts,
            "While the second step is locked, every code is refused before it is looked at",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let account = try await context.twoFactorAccount()
            for _ in 1...TwoFactorLimits.maxWrongCodes {
                try await context.setup(
                    await context.verifySecondStep(account.other, code: account.authenticator.wrongCode(context)), 401,
                    doing: "a wrong authenticator code")
            }
            let refused: Exchange
            switch operation {
            case .useRecoveryCode:
                refused = try await context.useRecoveryCode(
                    account.other, account.authenticator.recoveryCodes.first ?? "aaaaa-aaaaa")
            case .reauthAuthenticator:
                refused = try await context.http.post(
                    "/auth/reauth/authenticator", ["code": try await account.authenticator.nextCode(context)],
                    token: account.main.access)
            default:
                refused = try await context.verifySecondStep(
                    account.other, code: account.authenticator.nextCode(context))
            }
            try await context.expectLimited(
                refused, "two_factor_attempts", "\(operation.name): a right code while locked")
        },
    ]

    /// A recovery link for a registered address.
    static func recoveryLinkFor(_ context: CheckContext, _ email: String) async throws -> String {
        try await context.pass(SendLimits.cooldown)
        try await context.setup(await startRecovery(context, email), 202, doing: "asking for a recovery link")
        return try await context.messages.latest(.link, to: email)
    }

    static let twoFactorNeeds = Needs(messages: true, time: 2 * SendLimits.cooldown)

    static let twoFactorRoads: [Check] = [
        Check(
            .twoFactorAlreadyEnabled, "A setup, or its confirmation, while two-factor is on answers 409",
            needs: twoFactorNeeds
        ) { context, operation in
            let account = try await context.twoFactorAccount()
            // With a grant, so that only two-factor being on can refuse it, whichever a backend checks first.
            let answer =
                operation == .startTwoFactorSetup
                ? try await context.http.send(
                    "POST", "/me/two-factor/setup", token: account.main.access,
                    reauth: try await context.authenticatorGrant(account))
                : try await context.http.post(
                    "/me/two-factor/confirm", ["code": try await account.authenticator.nextCode(context)],
                    token: account.main.access)
            try await context.expect(answer, 409, "two_factor_enabled", "\(operation.name) while two-factor is on")
        },
        Check(
            .twoFactorNotEnabled,
            "The second step, new recovery codes or turning it off: 409 for an account without it",
            needs: twoFactorNeeds
        ) { context, operation in
            let account = try await context.newAccount()
            let answer: Exchange
            switch operation {
            case .verifyTwoFactor: answer = try await context.verifySecondStep(account, code: "123456")
            case .useRecoveryCode: answer = try await context.useRecoveryCode(account, "aaaaa-aaaaa")
            default:
                // With a grant, so that only two-factor being off can refuse it.
                answer = try await Probe.of(operation, context).send(
                    context, token: account.access, reauth: try await context.grant(account))
            }
            try await context.expect(
                answer, 409, "two_factor_not_enabled", "\(operation.name) for an account without two-factor")
        },
        Check(
            .twoFactorCodeIncorrect, "A wrong authenticator code is refused with the tries left", needs: twoFactorNeeds
        ) { context, operation in
            let answer: Exchange
            switch operation {
            case .confirmTwoFactorSetup:
                let account = try await context.newAccount()
                let started = try await context.setup(
                    await context.http.send(
                        "POST", "/me/two-factor/setup", token: account.access, reauth: context.grant(account)), 201,
                    doing: "setting two-factor up")
                guard let secret = started.object?["secret"] as? String, let totp = TOTP(base32: secret) else {
                    throw CheckStop.cannotTell("the two-factor setup answer has no secret")
                }
                answer = try await context.http.post(
                    "/me/two-factor/confirm", ["code": try await Authenticator.wrongCode(totp, context)],
                    token: account.access)
            case .reauthAuthenticator:
                let account = try await context.twoFactorAccount()
                answer = try await context.http.post(
                    "/auth/reauth/authenticator", ["code": try await account.authenticator.wrongCode(context)],
                    token: account.main.access)
            default:
                let account = try await context.twoFactorAccount()
                answer = try await context.verifySecondStep(
                    account.other, code: account.authenticator.wrongCode(context))
            }
            let refused = try await context.expect(answer, 401, "code_incorrect", "\(operation.name) with a wrong code")
            let remaining = refused.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == TwoFactorLimits.maxWrongCodes - 1,
                expected: "attempts_remaining: \(TwoFactorLimits.maxWrongCodes - 1)",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", refused)
        },
        Check(
            .twoFactorCodeReplayed, "A code already accepted does not pass again; the next step's does",
            needs: twoFactorNeeds
        ) { context, operation in
            let account = try await context.twoFactorAccount()
            func send(_ code: String) async throws -> Exchange {
                operation == .reauthAuthenticator
                    ? try await context.http.post(
                        "/auth/reauth/authenticator", ["code": code], token: account.main.access)
                    : try await context.verifySecondStep(account.other, code: code)
            }
            let replayed = try await context.expect(
                await send(account.authenticator.enablingCode), 401, "code_incorrect",
                "\(operation.name) with the code the confirmation accepted")
            try await context.expect(
                await send(try await account.authenticator.nextCode(context)), 200, nil,
                "\(operation.name) with the next step's code", evidence: [replayed])
        },
        Check(
            .twoFactorLocked,
            "\(TwoFactorLimits.maxWrongCodes) wrong codes lock the step for \(time(TwoFactorLimits.lockout)), and not longer",
            needs: .init(
                messages: true, time: 2 * SendLimits.cooldown + TwoFactorLimits.lockout,
                longestWait: TwoFactorLimits.lockout)
        ) { context, operation in
            let account = try await context.twoFactorAccount()
            var recoveryCodes = account.authenticator.recoveryCodes
            func wrong() async throws -> Exchange {
                switch operation {
                case .useRecoveryCode: return try await context.useRecoveryCode(account.other, "aaaaa-aaaaa")
                case .reauthAuthenticator:
                    return try await context.http.post(
                        "/auth/reauth/authenticator", ["code": try await account.authenticator.wrongCode(context)],
                        token: account.main.access)
                default:
                    return try await context.verifySecondStep(
                        account.other, code: account.authenticator.wrongCode(context))
                }
            }
            func right() async throws -> Exchange {
                switch operation {
                case .useRecoveryCode:
                    return try await context.useRecoveryCode(account.other, recoveryCodes.removeFirst())
                case .reauthAuthenticator:
                    return try await context.http.post(
                        "/auth/reauth/authenticator", ["code": try await account.authenticator.nextCode(context)],
                        token: account.main.access)
                default:
                    return try await context.verifySecondStep(
                        account.other, code: account.authenticator.nextCode(context))
                }
            }
            var last: Exchange?
            for _ in 1...TwoFactorLimits.maxWrongCodes {
                last = try await context.expect(await wrong(), 401, "code_incorrect", "a wrong code")
            }
            let remaining = last?.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == 0 && last?.errorMember?["retry_after"] != nil,
                expected: "attempts_remaining: 0 and a retry_after after \(TwoFactorLimits.maxWrongCodes) wrong codes",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", last!)
            let locked = try await context.expect(await right(), 429, "rate_limited", "the right code once locked")
            try await context.pass(TwoFactorLimits.lockout - 1)
            let stillLocked = try await context.expect(
                await right(), 429, "rate_limited",
                "the right code 1 s before the \(time(TwoFactorLimits.lockout)) lock ends", evidence: [locked]
            )
            try await context.pass(1)
            try await context.expect(
                await right(), 200, nil, "the right code once the lock ended", evidence: [stillLocked])
        },
    ]
}
