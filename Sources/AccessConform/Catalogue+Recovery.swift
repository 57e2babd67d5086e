import AccessCore
import Foundation

/// "Can't access your account?", a new account's onboarding steps, and the name a sign-in code may carry.
extension Catalogue {
    static let recoveryAndOnboarding: [Check] = recoveryFlow + onboarding + [displayName]

    static func startRecovery(_ context: CheckContext, _ email: String) async throws -> Exchange {
        try await context.http.post("/auth/recovery/start", ["email": email, "device": Device.body])
    }

    static func completeRecovery(
        _ context: CheckContext, _ link: String, _ password: String
    ) async throws
        -> Exchange
    {
        try await context.http.post(
            "/auth/recovery/complete", ["token": link, "password": password, "device": Device.body])
    }

    /// A registered account's recovery link: returns the address, its password and the link.
    static func recoveryLink(_ context: CheckContext) async throws -> (email: String, password: String, link: String) {
        let (email, password) = try await registered(context)
        try await context.pass(SendLimits.cooldown)
        try await context.setup(await startRecovery(context, email), 202, doing: "asking for a recovery link")
        return (email, password, try await context.messages.latest(.link, to: email))
    }

    static let recoveryNeeds = Needs(messages: true, time: SendLimits.cooldown)

    // MARK: recovery

    static let recoveryFlow: [Check] = [
        Check(
            .recoveryCooldown,
            "A second recovery request for one address within \(time(SendLimits.cooldown)) is refused; after it goes",
            needs: .init(time: SendLimits.cooldown)
        ) { context in
            let email = context.freshEmail()
            try await context.setup(await startRecovery(context, email), 202, doing: "asking for recovery")
            try await context.pass(SendLimits.cooldown - 1)
            let refused = try await context.expect(
                await startRecovery(context, email), 429, "rate_limited",
                "another request 1 s before \(time(SendLimits.cooldown))")
            let limit = refused.errorMember?["limit"] as? String
            try context.require(
                limit == "cooldown", expected: "limit: cooldown", got: "limit: \(limit ?? "absent")", refused)
            try await context.pass(1)
            try await context.expect(
                await startRecovery(context, email), 202, nil,
                "another request once \(time(SendLimits.cooldown)) passed", evidence: [refused])
        },
        Check(
            .recoveryDailyCap,
            "The \(RuleText.nth(RecoveryLimits.maxRequestsPerDay + 1)) recovery request for one address within \(time(RecoveryLimits.dailyWindow)) is refused",
            needs: .init(time: Double(RecoveryLimits.maxRequestsPerDay) * SendLimits.cooldown)
        ) { context in
            let email = context.freshEmail()
            for _ in 1...RecoveryLimits.maxRequestsPerDay {
                try await context.setup(
                    await startRecovery(context, email), 202, doing: "a recovery request within the cap")
                try await context.pass(SendLimits.cooldown)
            }
            let refused = try await context.expect(
                await startRecovery(context, email), 429, "rate_limited",
                "the \(RuleText.nth(RecoveryLimits.maxRequestsPerDay + 1)) request within \(time(RecoveryLimits.dailyWindow))"
            )
            let limit = refused.errorMember?["limit"] as? String
            try context.require(
                limit == "daily_cap", expected: "limit: daily_cap", got: "limit: \(limit ?? "absent")", refused)
        },
        Check(.recoveryLinkLive, "A live recovery link checks as live and still works after", needs: recoveryNeeds) {
            context in
            let (email, password, link) = try await recoveryLink(context)
            let checked = try await context.expect(
                await context.http.post("/auth/recovery/check", ["token": link]), 200, nil, "checking a live link")
            let address = (checked.object?["email"] as? String)?.lowercased()
            try context.require(
                address == email.lowercased(), expected: "email: the account's address",
                got: address == nil ? "no email" : "another address", checked)
            let completed = try await context.expect(
                await completeRecovery(context, link, password), 200, nil, "the link after it was checked",
                evidence: [checked])
            adoptSession(context, completed, email)
        },
        Check(
            .recoveryCredentialsInvalid, "The wrong password with a recovery link answers 401", needs: recoveryNeeds
        ) { context in
            let (_, _, link) = try await recoveryLink(context)
            try await context.expect(
                await completeRecovery(context, link, freshPassword()), 401, "credentials_invalid",
                "a wrong password with the link")
        },
    ]

    // MARK: onboarding

    static func continueFrom(_ context: CheckContext, _ account: Account, _ step: String) async throws -> Exchange {
        try await context.http.post("/me/onboarding/continue", ["from": step], token: account.access)
    }

    /// The state a change of step left, not the answer that told it: `GET /me/profile` afterwards must find
    /// `answered` (or, nil, any step but `left`).
    static func requireStepStored(
        _ context: CheckContext, _ account: Account, _ answered: String?, left: String, after change: Exchange
    ) async throws {
        let profile = try await context.expect(
            await context.http.get("/me/profile", token: account.access), 200, nil, "reading the profile back",
            evidence: [change])
        let stored = profile.object?["onboarding_step"] as? String
        try context.require(
            stored != nil && stored != left && (answered == nil || stored == answered),
            expected: "onboarding_step read back: \(answered.map { "\($0), as the answer said" } ?? "past \(left)")",
            got: "onboarding_step: \(stored ?? "absent")", profile)
    }

    @discardableResult
    static func saveProfile(_ context: CheckContext, _ account: Account) async throws -> Exchange {
        try await context.setup(
            await context.http.send(
                "PUT", "/me/profile", body: ConformHTTP.encode(["username": freshUsername()]), token: account.access),
            200, doing: "choosing a username")
    }

    static let onboarding: [Check] = [
        Check(.onboardingProfileRequired, "A new account cannot skip choosing a username", needs: .init(messages: true))
        { context in
            let account = try await context.newAccount()
            try await context.expect(
                await continueFrom(context, account, "profile"), 409, "onboarding_step",
                "leaving the profile step unsaved")
        },
        Check(
            .onboardingStepNotReached, "A new account cannot leave a step it has not reached",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            try await context.expect(
                await continueFrom(context, account, "finish"), 409, "onboarding_step",
                "leaving finish from the profile step"
            )
        },
        Check(
            .onboardingContinued, "A phone account past its profile may leave the recovery email step",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            let saved = try await saveProfile(context, account)
            let moved = try await context.expect(
                await continueFrom(context, account, "recovery_email"), 200, nil, "leaving the recovery email step",
                evidence: [saved])
            let step = moved.object?["onboarding_step"] as? String
            try context.require(
                step != nil && step != "profile" && step != "recovery_email",
                expected: "onboarding_step past recovery_email", got: "onboarding_step: \(step ?? "absent")", moved)
            try await requireStepStored(context, account, step, left: "recovery_email", after: moved)
        },
        Check(
            .onboardingEmailAlreadySet, "An account with an email cannot set a recovery email",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount(.email)
            try await saveProfile(context, account)
            try await context.expect(
                await context.http.post(
                    "/me/recovery-email", ["email": context.freshEmail(), "password": freshPassword()],
                    token: account.access), 409, "email_already_set", "a recovery email for an email account")
        },
        Check(
            .onboardingAlreadyComplete, "A finished onboarding has nothing to leave", needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount(.email)
            try await saveProfile(context, account)
            let finished = try await context.setup(
                await continueFrom(context, account, "finish"), 200, doing: "finishing onboarding")
            try await context.expect(
                await continueFrom(context, account, "complete"), 409, "onboarding_step",
                "leaving a complete onboarding",
                evidence: [finished])
        },
    ]

    // MARK: signin

    static let displayName = Check(
        .signInDisplayNameInvalid, "A blank name with a sign-in code answers 422 and the code still works",
        needs: .init(messages: true)
    ) { context in
        let phone = context.freshPhone()
        let id = try await context.challenge(.phone, phone)
        let code = try await context.messages.latest(.code, to: phone)
        var body: [String: Any] = ["challenge_id": id, "code": code, "device": Device.body]
        body["display_name"] = "   "
        let refused = try await context.http.post("/auth/sign-in/code/verify", body)
        context.noteCreated(refused, destination: phone, channel: .phone)
        try await context.expect(refused, 422, "invalid_field", "a blank display_name")
        let answer = try await context.expect(
            await context.verifySignIn(id, code: code), 200, nil, "the same code without a name", evidence: [refused])
        context.noteCreated(answer, destination: phone, channel: .phone)
    }
}
