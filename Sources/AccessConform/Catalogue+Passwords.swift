import AccessCore
import Foundation

/// Email & password: registration, password sign-in and its lock, "Verify it's you" by password.
extension Catalogue {
    static let passwords: [Check] = registerChecks + loginChecks + passwordReauthChecks

    /// A password no list has and nothing like a conform address: the password rules accept it.
    static func freshPassword() -> String {
        "Tq9!" + UUID().uuidString.replacingOccurrences(of: "-", with: "").suffix(20)
    }

    static func register(_ context: CheckContext, _ email: String, _ password: String) async throws -> Exchange {
        try await context.http.post(
            "/auth/register", ["email": email, "password": password, "device": Device.body])
    }

    static func login(_ context: CheckContext, _ email: String, _ password: String) async throws -> Exchange {
        try await context.http.post("/auth/login", ["email": email, "password": password, "device": Device.body])
    }

    /// Registers a fresh address and opens its link; returns the address and password.
    static func registered(_ context: CheckContext) async throws -> (email: String, password: String) {
        let email = context.freshEmail()
        let password = freshPassword()
        try await context.setup(await register(context, email, password), 201, doing: "registering")
        let link = try await context.messages.latest(.link, to: email)
        try await context.setup(
            await context.http.post("/auth/register/confirm", ["token": link]), 200,
            doing: "opening the registration link")
        return (email, password)
    }

    /// Signs into a registered address with its password; the account is cleaned up after the check.
    static func signedIn(_ context: CheckContext, _ email: String, _ password: String) async throws -> Account {
        let answer = try await context.setup(
            await login(context, email, password), 200, doing: "signing in by password")
        guard let session = answer.object?["session"] as? [String: Any],
            let access = session["access_token"] as? String, let refresh = session["refresh_token"] as? String
        else { throw CheckStop.cannotTell("the password sign-in answer has no session") }
        let account = Account(destination: email, channel: .email, access: access, refresh: refresh, created: true)
        context.adopt(account)
        return account
    }

    // MARK: register

    static let registerChecks: [Check] = [
        Check(
            .registerLinkSent, "Registering answers 201 and emails a link; the password does not sign in before it",
            needs: .init(messages: true)
        ) { context in
            let email = context.freshEmail()
            let password = freshPassword()
            let answer = try await context.expect(
                await register(context, email, password), 201, nil, "registering a fresh address")
            try context.require(
                answer.object?["link_expires_at"] is String, expected: "link_expires_at", got: "none", answer)
            _ = try await context.messages.latest(.link, to: email)
            try await context.expect(
                await login(context, email, password), 403, "email_unverified",
                "the password before the link is opened",
                evidence: [answer])
        },
        Check(
            .registerResendAnswered, "Resending a registration link answers 202 whether or not anyone waits",
            needs: .init(time: SendLimits.cooldown)
        ) { context in
            let waiting = context.freshEmail()
            try await context.setup(await register(context, waiting, freshPassword()), 201, doing: "registering")
            try await context.pass(SendLimits.cooldown)
            let known = try await context.expect(
                await context.http.post("/auth/register/resend", ["email": waiting]), 202, nil,
                "a resend for an address that waits on its link")
            try await context.expect(
                await context.http.post("/auth/register/resend", ["email": context.freshEmail()]), 202, nil,
                "a resend for an address nobody registered", evidence: [known])
        },
        Check(
            .registerConfirmed,
            "Opening the registration link lets the password sign in, and moves onboarding past verify_email",
            needs: .init(messages: true)
        ) { context in
            let email = context.freshEmail()
            let password = freshPassword()
            try await context.setup(await register(context, email, password), 201, doing: "registering")
            let link = try await context.messages.latest(.link, to: email)
            let confirmed = try await context.expect(
                await context.http.post("/auth/register/confirm", ["token": link]), 200, nil, "the registration link")
            let signedIn = try await context.expect(
                await login(context, email, password), 200, nil, "the password once the link was opened",
                evidence: [confirmed])
            adoptSession(context, signedIn, email)
            // "An account waiting on onboarding's verify_email step moves on": a new phone account's recovery email.
            let account = try await context.newAccount()
            try await saveProfile(context, account)
            let recovery = context.freshEmail()
            let set = try await context.setup(
                await context.http.post(
                    "/me/recovery-email", ["email": recovery, "password": freshPassword()], token: account.access),
                202, doing: "setting a recovery email")
            guard set.object?["onboarding_step"] as? String == "verify_email" else {
                throw CheckStop.cannotTell("the account with a recovery email does not wait on verify_email")
            }
            let opened = try await context.expect(
                await context.http.post(
                    "/auth/register/confirm", ["token": try await context.messages.latest(.link, to: recovery)]), 200,
                nil, "the recovery email's link")
            try await requireStepStored(context, account, nil, left: "verify_email", after: opened)
        },
        Check(
            .registerEmailTaken, "Registering an address an account signs in with answers 409 email_taken",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            // A registration counts for the send limits of its address, and the sign-in just sent to it.
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                await register(context, account.destination, freshPassword()), 409, "email_taken",
                "registering the address of an account")
        },
    ]

    /// Keeps the account a password sign-in reached, so it is cleaned up.
    static func adoptSession(_ context: CheckContext, _ answer: Exchange, _ email: String) {
        guard let session = answer.object?["session"] as? [String: Any],
            let access = session["access_token"] as? String, let refresh = session["refresh_token"] as? String
        else { return }
        context.adopt(Account(destination: email, channel: .email, access: access, refresh: refresh, created: true))
    }

    // MARK: login

    static let loginChecks: [Check] = [
        Check(.loginSignedIn, "The right password for a verified address signs in", needs: .init(messages: true)) {
            context in
            let (email, password) = try await registered(context)
            let answer = try await context.expect(await login(context, email, password), 200, nil, "the right password")
            adoptSession(context, answer, email)
            try context.require(
                (answer.object?["session"] as? [String: Any])?["access_token"] is String,
                expected: "a session", got: "no session", answer)
        },
        Check(.loginCredentialsInvalid, "A wrong password answers 401 credentials_invalid, known address or not") {
            context in
            try await context.expect(
                await login(context, context.freshEmail(), freshPassword()), 401, "credentials_invalid",
                "a password for an address nobody has")
        },
        Check(.loginEmailUnverified, "The right password before the registration link is opened answers 403") {
            context in
            let email = context.freshEmail()
            let password = freshPassword()
            try await context.setup(await register(context, email, password), 201, doing: "registering")
            try await context.expect(
                await login(context, email, password), 403, "email_unverified", "the right password, link not opened")
        },
    ]

    // MARK: reauth by password

    static func passwordReauth(
        _ context: CheckContext, _ account: Account, _ password: String
    ) async throws
        -> Exchange
    {
        try await context.http.post("/auth/reauth/password", ["password": password], token: account.access)
    }

    static let passwordReauthChecks: [Check] = [
        Check(
            .reauthPasswordIncorrect, "Verify it's you with a wrong password answers 401", needs: .init(messages: true)
        ) { context in
            let (email, password) = try await registered(context)
            let account = try await signedIn(context, email, password)
            try await context.expect(
                await passwordReauth(context, account, freshPassword()), 401, "password_incorrect", "a wrong password")
        },
        Check(
            .rateLimitPasswordAttempts,
            "After \(PasswordAttemptRules.maxFailures) wrong passwords in \(time(PasswordAttemptRules.window)) Verify it's you by password is refused",
            needs: .init(messages: true)
        ) { context in
            let (email, password) = try await registered(context)
            let account = try await signedIn(context, email, password)
            for _ in 1...PasswordAttemptRules.maxFailures {
                try await context.expect(
                    await passwordReauth(context, account, freshPassword()), 401, "password_incorrect",
                    "a wrong password within the \(PasswordAttemptRules.maxFailures) allowed")
            }
            let refused = try await context.expect(
                await passwordReauth(context, account, password), 429, "rate_limited",
                "the right password after \(PasswordAttemptRules.maxFailures) wrong ones")
            let limit = refused.errorMember?["limit"] as? String
            try context.require(
                limit == "password_attempts", expected: "limit: password_attempts",
                got: "limit: \(limit ?? "absent")", refused)
        },
    ]
}
