import AccessCore
import Foundation

/// Rules whose check asserts the state after, not only the answer: what a logout, a new sign-in code, a password
/// change or a spent recovery code leave behind. And the lock answers that RULES.md and the contract allow two ways,
/// and the accounts only the backend's owner can set up.
extension Catalogue {
    static let effects: [Check] = [
        Check(
            .sessionLogout, "Logging out ends the sign-in, every rotation of it included; other devices stay",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            let other = try await context.signIn(.email, account.destination)
            let rotated = try await context.setup(
                await context.refresh(account.refresh), 200, doing: "refreshing before logging out")
            guard let access = rotated.object?["access_token"] as? String,
                let refresh = rotated.object?["refresh_token"] as? String
            else { throw CheckStop.cannotTell("the refresh answer has no tokens") }
            let out = try await context.expect(
                await context.http.send("POST", "/auth/logout", token: access), 204, nil, "logging out")
            try await context.expect(
                await context.http.get("/auth/me", token: access), 401, nil, "the access token after logging out",
                evidence: [out])
            try await context.expect(
                await context.refresh(refresh), 401, nil, "the refresh token of the sign-in after logging out",
                evidence: [out])
            try await context.expect(
                await context.http.get("/auth/me", token: other.access), 200, nil,
                "the same account's other device after this one logged out", evidence: [out])
        },
        Check(
            .signInCodeSent, "A sign-in code goes out for \(time(CodeRules.lifetime)); starting again replaces it",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let phone = context.freshPhone()
            let answer = try await context.expect(
                await context.startSignIn(.phone, phone), 202, nil, "a sign-in code for a valid number")
            let first = answer.object?["challenge_id"] as? String
            // Both dates are on the backend's clock: the code's end is 5 min after now, its resend 30 s.
            let lifetime = seconds(from: answer.object?["resend_after"], to: answer.object?["expires_at"])
                .map { $0 + SendLimits.cooldown }
            try context.require(
                first != nil && lifetime.map { abs($0 - CodeRules.lifetime) <= 5 } == true,
                expected: "a challenge_id and expires_at \(time(CodeRules.lifetime)) after now",
                got:
                    "challenge_id \(first == nil ? "absent" : "present"), expires in \(lifetime.map { "\(Int($0)) s" } ?? "?")",
                answer)
            let old = try await context.messages.latest(.code, to: phone)
            try await context.pass(SendLimits.cooldown)
            let second = try await context.challenge(.phone, phone)
            let new = try await context.messages.latest(.code, to: phone)
            guard new != old else { throw CheckStop.cannotTell("the second code is the same as the first") }
            let stale = try await context.verifySignIn(first ?? "", code: old)
            context.noteCreated(stale, destination: phone, channel: .phone)
            try await context.expectRefusal(stale, "the first code once a sign-in started again")
            let signedIn = try await context.expect(
                await context.verifySignIn(second, code: new), 200, nil, "the code of the sign-in started again",
                evidence: [stale])
            context.noteCreated(signedIn, destination: phone, channel: .phone)
        },
        Check(
            .passwordChanged, "A changed password signs in and the old one does not; every other session ends",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let (account, old, grant) = try await passwordAccount(context)
            let other = try await signedIn(context, account.destination, old)
            let new = freshPassword()
            let changed = try await context.expect(
                await changePassword(context, account, new, reauth: grant), 200, nil,
                "a new password after Verify it's you")
            try await context.expect(
                await context.http.get("/auth/me", token: other.access), 401, nil, "another session after the change",
                evidence: [changed])
            try await context.expect(
                await context.http.get("/auth/me", token: account.access), 200, nil, "the session that changed it",
                evidence: [changed])
            try await context.expect(
                await login(context, account.destination, old), 401, "credentials_invalid", "the old password",
                evidence: [changed])
            let signedIn = try await context.expect(
                await login(context, account.destination, new), 200, nil, "the new password", evidence: [changed])
            adoptSession(context, signedIn, account.destination)
        },
        Check(
            .twoFactorRecoveryCodeUsed, "A recovery code passes the step once, in any case and without its dash",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown)
        ) { context in
            let account = try await context.twoFactorAccount()
            guard let code = account.authenticator.recoveryCodes.first else {
                throw CheckStop.cannotTell("the confirmation gave no recovery codes")
            }
            let typed = code.replacingOccurrences(of: "-", with: "").uppercased()
            let used = try await context.expect(
                await context.useRecoveryCode(account.other, typed), 200, nil,
                "an unused recovery code, upper case, no dash")
            try await context.requireSignedIn(used, "the recovery code")
            // Another sign-in of the account, which must pass its own second step: the spent code does not.
            try await context.pass(SendLimits.cooldown)
            let again = try await context.signIn(account.main.channel, account.main.destination)
            try await context.expect(
                await context.useRecoveryCode(again, code), 401, "code_incorrect",
                "the same recovery code a second time",
                evidence: [used])
        },
        Check(
            .otpSent, "A code to the phone works; a new request while one is live cancels that one",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            try await context.pass(SendLimits.cooldown)
            let first = try await context.expect(
                await requestOTP(context, account, account.destination, "reauth"), 202, nil,
                "a re-auth code to the phone")
            let firstID = first.object?["request_id"] as? String
            try context.require(firstID != nil, expected: "a request_id", got: "none", first)
            let firstCode = try await context.messages.latest(.code, to: account.destination)
            try await context.pass(SendLimits.cooldown)
            let second = try await context.setup(
                await requestOTP(context, account, account.destination, "reauth"), 202, doing: "asking again")
            let secondCode = try await context.messages.latest(.code, to: account.destination)
            let cancelled = try await context.expect(
                await verifyOTP(context, account, firstID ?? "", firstCode), 410, "code_expired",
                "the first code once a new one was asked for", evidence: [second])
            try await context.expect(
                await verifyOTP(context, account, second.object?["request_id"] as? String ?? "", secondCode), 200, nil,
                "the code of the new request", evidence: [cancelled])
        },
        Check(
            .otpVerified, "The right code carries out its purpose: a re-auth grant, or the number saved",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            let answer = try await context.expect(
                await verifyOTP(context, account, id, code), 200, nil, "the right code")
            let grant = (answer.object?["reauth"] as? [String: Any])?["reauth_token"] as? String
            try context.require(grant != nil, expected: "a reauth token", got: "none", answer)
            let emailAccount = try await context.newAccount(.email)
            let phone = context.freshPhone()
            let asked = try await context.setup(
                await requestOTP(context, emailAccount, phone, "add_phone"), 202, doing: "adding a phone")
            let added = try await context.expect(
                await verifyOTP(
                    context, emailAccount, asked.object?["request_id"] as? String ?? "",
                    context.messages.latest(.code, to: phone)), 200, nil, "the right code for an added phone")
            let methods = try await context.expect(
                await context.http.get("/me/auth-methods", token: emailAccount.access), 200, nil,
                "the methods afterwards",
                evidence: [added])
            try context.require(
                methods.object?["phone"] as? String == phone, expected: "phone: the number the code went to",
                got: "phone: \(methods.object?["phone"] == nil ? "none" : "another")", methods)
        },
        Check(
            .recoverySignedInLimited, "The right password with a recovery link signs in with limited access, once",
            needs: recoveryNeeds
        ) { context in
            let (email, password, link) = try await recoveryLink(context)
            let completed = try await context.expect(
                await completeRecovery(context, link, password), 200, nil, "the right password with the link")
            adoptSession(context, completed, email)
            let access = (completed.object?["profile"] as? [String: Any])?["access"] as? String
            try context.require(
                (completed.object?["session"] as? [String: Any])?["access_token"] is String && access == "limited",
                expected: "a session with access: limited", got: "access: \(access ?? "absent")", completed)
            try await context.expect(
                await completeRecovery(context, link, password), 410, "link_expired", "the same link again",
                evidence: [completed])
        },
        Check(
            .onboardingRecoveryEmailSet,
            "A recovery email is stored and sent its link; the account moves on, and its password waits for the link",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            try await saveProfile(context, account)
            let email = context.freshEmail()
            let password = freshPassword()
            let set = try await context.expect(
                await context.http.post(
                    "/me/recovery-email", ["email": email, "password": password], token: account.access),
                202, nil, "setting a recovery email")
            let step = set.object?["onboarding_step"] as? String
            try context.require(
                step != nil && step != "recovery_email" && step != "profile",
                expected: "onboarding_step past recovery_email", got: "onboarding_step: \(step ?? "absent")", set)
            try await requireStepStored(context, account, step, left: "recovery_email", after: set)
            _ = try await context.messages.latest(.link, to: email)
            try await context.expect(
                await login(context, email, password), 403, "email_unverified",
                "its password before the link is opened",
                evidence: [set])
        },
        Check(
            .deleteDone,
            "Deleting after Verify it's you ends every session; the identities are held "
                + "\(time(DeletionRules.holdDuration)), the rest \(time(DeletionRules.purgeDelay))",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            let other = try await context.signIn(.email, account.destination)
            let grant = try await context.grant(account)
            let deleted = try await context.expect(
                await context.http.send("DELETE", "/me", token: account.access, reauth: grant), 200, nil,
                "deleting after Verify it's you")
            context.deleted(account.destination)
            let at = date(deleted.object?["deleted_at"])
            let held = seconds(from: deleted.object?["deleted_at"], to: deleted.object?["identity_held_until"])
            let purged = seconds(from: deleted.object?["deleted_at"], to: deleted.object?["purge_at"])
            try context.require(
                at != nil && held == DeletionRules.holdDuration && purged == DeletionRules.purgeDelay,
                expected:
                    "identity_held_until \(time(DeletionRules.holdDuration)) and purge_at \(time(DeletionRules.purgeDelay)) after deleted_at",
                got: "held \(held.map { "\(Int($0)) s" } ?? "?"), purged \(purged.map { "\(Int($0)) s" } ?? "?")",
                deleted)
            for (token, what) in [(account.access, "this device's access token"), (other.access, "another device's")] {
                try await context.expect(
                    await context.http.get("/auth/me", token: token), 401, nil, "\(what) once the account is deleted",
                    evidence: [deleted])
            }
            try await context.expect(
                await context.refresh(other.refresh), 401, nil, "a refresh token once the account is deleted",
                evidence: [deleted])
        },
        Check(
            .loginLocked,
            "The \(RuleText.nth(LoginLockRules.failuresBeforeLock + 1)) wrong password in a row locks the address; each lock after is longer",
            needs: .init(time: 3 * LoginLockRules.firstLock, longestWait: 2 * LoginLockRules.firstLock - 1)
        ) { context in
            let email = context.freshEmail()
            try await expectLock(context, what: "Log in") { try await login(context, email, freshPassword()) }
        },
        Check(
            .recoveryLocked,
            "The \(RuleText.nth(LoginLockRules.failuresBeforeLock + 1)) wrong password with a recovery link locks the address",
            needs: .init(
                messages: true, time: SendLimits.cooldown + 3 * LoginLockRules.firstLock,
                longestWait: 2 * LoginLockRules.firstLock - 1)
        ) { context in
            let (_, _, link) = try await recoveryLink(context)
            try await expectLock(context, what: "the recovery link") {
                try await completeRecovery(context, link, freshPassword())
            }
        },
        Check(
            .deletePreflightBlocked,
            "Upcoming sessions, bookings or a balance stand in the way of deleting, soonest first",
            needs: .init(scenario: "coach-sessions")
        ) { context in
            let account = try await context.blockedAccount()
            let preflight = try await context.expect(
                await context.http.get("/me/delete-preflight", token: account.access), 200, nil, "the delete preflight")
            let blockers = preflight.object?["blockers"] as? [[String: Any]] ?? []
            if context.reference == nil, blockers.isEmpty {
                throw CheckStop.skipped("the account given has nothing in the way of deleting it")
            }
            let starts = blockers.flatMap {
                ($0["items"] as? [[String: Any]] ?? []).compactMap { $0["starts_at"] as? String }
            }
            try context.require(
                !blockers.isEmpty && starts == starts.sorted(),
                expected: "a blocker for what stands in the way, upcoming items soonest first",
                got: blockers.isEmpty ? "no blockers" : "\(starts.count) upcoming items, in another order", preflight)
        },
        Check(
            .deleteBlocked, "DELETE /me with a blocker answers 409 delete_blocked before asking to Verify it's you",
            needs: .init(scenario: "coach-sessions")
        ) { context in
            let account = try await context.blockedAccount()
            let preflight = try await context.setup(
                await context.http.get("/me/delete-preflight", token: account.access), 200,
                doing: "the delete preflight")
            if context.reference == nil, (preflight.object?["blockers"] as? [Any])?.isEmpty ?? true {
                throw CheckStop.skipped("the account given has nothing in the way of deleting it")
            }
            // Without a grant: a backend that did not look at the blockers asks for one, and deletes nothing.
            try await context.expect(
                await context.http.send("DELETE", "/me", token: account.access), 409, "delete_blocked",
                "deleting with something in the way, no re-auth token", evidence: [preflight])
        },
        Check(
            .disconnectLastMethod, "The only way to sign in cannot be disconnected",
            needs: .init(scenario: "apple-only")
        ) { context in
            let (account, provider) = try await context.onlyProviderAccount()
            // Its only method is the provider, so nothing else can verify it's them: the session stands in, and only
            // the last-method rule can refuse.
            try await context.expect(
                await context.http.post("/me/auth-methods/disconnect", ["provider": provider], token: account.access),
                409,
                "last_method", "disconnecting the account's only method")
        },
    ]

    /// "More than 2 failures in a row lock the address" for 30 s, and each further failure doubles the wait. The
    /// attempt that starts a lock may answer 429 naming the lock, or 401 with `retry_after` (openapi.yaml,
    /// Lockouts); while locked, every attempt is 429 either way.
    static func expectLock(
        _ context: CheckContext, what: String, _ attempt: () async throws -> Exchange
    )
        async throws
    {
        for _ in 1...LoginLockRules.failuresBeforeLock {
            try await context.expect(
                await attempt(), 401, "credentials_invalid", "a wrong password with \(what) before the lock")
        }
        let failures = LoginLockRules.failuresBeforeLock + 1
        try await expectLockStarted(
            context, await attempt(), LoginLockRules.firstLock, what: "wrong password \(failures)")
        try await context.expectLimited(
            await attempt(), "login_lockout", "another password with \(what) while the address is locked")
        // The next failure after the first lock locks it twice as long, and the one after that twice as long again.
        try await context.pass(LoginLockRules.firstLock)
        try await expectLockStarted(
            context, await attempt(), 2 * LoginLockRules.firstLock, what: "wrong password \(failures + 1)")
        try await context.pass(2 * LoginLockRules.firstLock - 1)
        try await context.expectLimited(
            await attempt(), "login_lockout", "a password 1 s before the second lock, twice as long, ends")
        try await context.pass(1)
        try await expectLockStarted(
            context, await attempt(), 4 * LoginLockRules.firstLock, what: "wrong password \(failures + 2)")
    }

    /// The attempt that starts a lock of `seconds`: 429 `rate_limited` with limit `login_lockout`, or 401
    /// `credentials_invalid`, either with `retry_after` of the lock's length.
    static func expectLockStarted(
        _ context: CheckContext, _ answer: Exchange, _ seconds: TimeInterval, what: String
    ) async throws {
        if answer.status == 429 {
            try await context.expectLimited(answer, "login_lockout", "\(what): a lock of \(Int(seconds)) s starts")
        } else {
            try await context.expect(answer, 401, "credentials_invalid", "\(what): 429, or 401 with retry_after")
        }
        try context.require(
            answer.retryAfter == seconds, expected: "\(what): retry_after \(Int(seconds)) (the lock it starts)",
            got: "retry_after \(answer.retryAfter.map { String(Int($0)) } ?? "absent")", answer)
    }
}

extension CheckContext {
    /// A refusal of whatever kind: a 4xx, but a 429 (a limit says nothing of the rule).
    @discardableResult
    func expectRefusal(_ send: @autoclosure () async throws -> Exchange, _ what: String) async throws -> Exchange {
        let answer = try await send()
        if answer.status >= 500 || answer.status == 429 { return try await expect(answer, 400, nil, what) }
        try require(
            (400..<500).contains(answer.status), expected: "\(what): refused", got: answer.summary, answer)
        return answer
    }

    /// An account something stands in the way of deleting: the reference backend's `coach-sessions` user, else
    /// `--fixture-accounts`' `delete_blocked`, else `--account`.
    func blockedAccount() async throws -> Account {
        if let reference { return try await reference.session() }
        if let fixture = settings.fixtures[.deleteBlocked] { return try await signIn(fixture) }
        if let existing = settings.account { return try await account(existing.hasPrefix("+") ? .phone : .email) }
        throw CheckStop.skipped(
            "needs an account with upcoming sessions, bookings or a balance: give --account, or delete_blocked in "
                + "--fixture-accounts")
    }

    /// An account whose only way in is Apple or Google, and which: the reference backend's `apple-only` user, else
    /// `--fixture-accounts`' `only_provider`.
    func onlyProviderAccount() async throws -> (Account, String) {
        if let reference { return (try await reference.session(), "apple") }
        if let fixture = settings.fixtures[.onlyProvider], let provider = fixture.provider {
            return (try await signIn(fixture), provider)
        }
        throw CheckStop.skipped(
            "needs an account whose only way in is Apple or Google: only_provider in --fixture-accounts")
    }

    /// A fixture account: signed into by code, or the session its owner gave.
    func signIn(_ fixture: FixtureAccounts.Account) async throws -> Account {
        switch fixture.access {
        case .signIn(let destination):
            return try await signIn(destination.hasPrefix("+") ? .phone : .email, destination)
        case .session(let token):
            return Account(destination: "", channel: .phone, access: token, refresh: "", created: false)
        }
    }
}
