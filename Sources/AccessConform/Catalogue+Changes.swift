import AccessCore
import Foundation

/// Changing what an account signs in with: phone codes to a number, the email, the password and its reset.
extension Catalogue {
    static let changes: [Check] = phoneChanges + emailChanges + passwordChanges

    static func requestOTP(
        _ context: CheckContext, _ account: Account, _ phone: String, _ purpose: String, reauth: String? = nil
    ) async throws -> Exchange {
        try await context.http.post(
            "/auth/phone/request-otp", ["phone": phone, "purpose": purpose], token: account.access, reauth: reauth)
    }

    // MARK: otp and phone

    static let phoneChanges: [Check] = [
        Check(
            .otpResent, "A resent phone code works and the one before it does not",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let old = try await context.messages.latest(.code, to: account.destination)
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                await context.http.post("/auth/phone/resend-otp", ["request_id": id], token: account.access), 202, nil,
                "a resend after the cooldown")
            let new = try await context.messages.latest(.code, to: account.destination)
            guard new != old else { throw CheckStop.cannotTell("the resent code is the same as the first") }
            let stale = try await context.expect(
                await verifyOTP(context, account, id, old), 401, "code_incorrect", "the code before the resend")
            try await context.expect(
                await verifyOTP(context, account, id, new), 200, nil, "the resent code", evidence: [stale])
        },
        Check(
            .otpReverifyNotLimited, "Re-verifying a phone from a session with full access answers 422",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                await requestOTP(context, account, account.destination, "reverify_phone"), 422, "invalid_field",
                "purpose reverify_phone with full access")
        },
        Check(
            .phoneUnchanged, "Changing the phone to the number it already is answers 422",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            let phone = context.freshPhone()
            let grant = try await context.grant(account)
            let asked = try await context.setup(
                await requestOTP(context, account, phone, "add_phone", reauth: grant), 202, doing: "adding a phone")
            let id = asked.object?["request_id"] as? String ?? ""
            let code = try await context.messages.latest(.code, to: phone)
            try await context.setup(await verifyOTP(context, account, id, code), 200, doing: "verifying the new phone")
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                await requestOTP(context, account, phone, "change_phone", reauth: grant), 422, "phone_unchanged",
                "changing the phone to its own number")
        },
    ]

    // MARK: email

    static func emailAvailability(
        _ context: CheckContext, _ account: Account, _ email: String
    ) async throws
        -> Exchange
    {
        try await context.http.get("/auth/email-available?email=\(email)", token: account.access)
    }

    static let emailChanges: [Check] = [
        Check(.emailAvailable, "An address nobody has is available", needs: .init(messages: true)) { context in
            let account = try await context.account()
            let answer = try await context.expect(
                await emailAvailability(context, account, context.freshEmail()), 200, nil, "an address nobody has")
            try context.require(
                answer.object?["available"] as? Bool == true, expected: "available: true",
                got: "available: \(answer.object?["available"].map { "\($0)" } ?? "absent")", answer)
        },
        Check(
            .emailUnchanged, "Changing the email to the address it already is answers 422", needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.expect(
                await context.http.post(
                    "/auth/email/request-change", ["email": account.destination], token: account.access),
                422, "email_unchanged", "changing the email to its own address")
        },
        Check(
            .emailChangeWithoutEmail, "An account without an email cannot change it: 422 method_unavailable",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            try await context.expect(
                await context.http.post(
                    "/auth/email/request-change", ["email": context.freshEmail()], token: account.access,
                    reauth: grant), 422, "method_unavailable", "changing the email of a phone-only account")
        },
        Check(
            .emailAddWithEmail, "An account with an email cannot add another: 409 email_already_set",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.expect(
                await context.http.post(
                    "/auth/email/add-with-password", ["email": context.freshEmail(), "password": freshPassword()],
                    token: account.access), 409, "email_already_set", "adding an email to an account with one")
        },
        Check(.emailNothingPending, "Resending with no change pending answers 404", needs: .init(messages: true)) {
            context in
            let account = try await context.newAccount(.email)
            try await context.expect(
                await context.http.send("POST", "/auth/email/resend", token: account.access), 404, "link_not_found",
                "a resend with no change pending")
        },
        Check(
            .emailChanged, "Opening the link adds the email, which then signs in with its password",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            let email = context.freshEmail()
            let password = freshPassword()
            try await context.setup(
                await context.http.post(
                    "/auth/email/add-with-password", ["email": email, "password": password], token: account.access,
                    reauth: grant), 202, doing: "adding an email")
            let link = try await context.messages.latest(.link, to: email)
            let verified = try await context.expect(
                await context.http.post("/auth/email/verify", ["token": link]), 200, nil, "the email's link")
            // "a new session is issued": the one the answer carries works.
            guard let issued = (verified.object?["session"] as? [String: Any])?["access_token"] as? String else {
                throw CheckStop.broken(expected: "the email's link: a session", got: "no session", evidence: [verified])
            }
            try await context.expect(
                await context.http.get("/auth/me", token: issued), 200, nil, "the session the email's link issued",
                evidence: [verified])
            let signedIn = try await context.expect(
                await login(context, email, password), 200, nil, "the added email and password", evidence: [verified])
            adoptSession(context, signedIn, email)
        },
    ]

    // MARK: password

    static func changePassword(
        _ context: CheckContext, _ account: Account, _ new: String, reauth: String?
    )
        async throws -> Exchange
    {
        try await context.http.post(
            "/auth/password/change", ["new_password": new], token: account.access, reauth: reauth)
    }

    /// A registered, signed-in account and a grant by its email link.
    static func passwordAccount(_ context: CheckContext) async throws -> (Account, String, grant: String) {
        let (email, password) = try await registered(context)
        let account = try await signedIn(context, email, password)
        return (account, password, try await context.grant(account))
    }

    static let passwordChanges: [Check] = [
        Check(
            .passwordWithoutEmail, "A phone-only account cannot set a password: 422 method_unavailable",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            try await context.expect(
                await changePassword(context, account, freshPassword(), reauth: grant), 422, "method_unavailable",
                "a password for an account without an email")
        },
        Check(
            .passwordResetLinkLive, "A reset link checks as live and still resets the password afterwards",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let (email, _) = try await registered(context)
            try await context.pass(SendLimits.cooldown)
            try await context.setup(
                await context.http.post("/auth/password/reset", ["email": email]), 202, doing: "asking for a reset link"
            )
            let link = try await context.messages.latest(.link, to: email)
            let checked = try await context.expect(
                await context.http.post("/auth/password/reset/check", ["token": link]), 200, nil,
                "checking the reset link")
            let address = (checked.object?["email"] as? String)?.lowercased()
            try context.require(
                address == email.lowercased(), expected: "email: the address the link went to",
                got: address == nil ? "no email" : "another address", checked)
            let new = freshPassword()
            try await context.expect(
                await context.http.post("/auth/password/reset/complete", ["token": link, "new_password": new]), 200,
                nil,
                "the link after it was checked", evidence: [checked])
            let after = try await login(context, email, new)
            adoptSession(context, after, email)
        },
        Check(
            .passwordReset, "A reset replaces the password and ends the account's sessions, refresh tokens included",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let (email, password) = try await registered(context)
            let before = try await signedIn(context, email, password)
            try await context.pass(SendLimits.cooldown)
            try await context.setup(
                await context.http.post("/auth/password/reset", ["email": email]), 202, doing: "asking for a reset link"
            )
            let link = try await context.messages.latest(.link, to: email)
            let new = freshPassword()
            let reset = try await context.expect(
                await context.http.post("/auth/password/reset/complete", ["token": link, "new_password": new]), 200,
                nil,
                "resetting the password")
            // "No session is issued": none in the answer, and none behind it (the list below).
            try context.require(
                reset.object?["session"] == nil && reset.object?["access_token"] == nil
                    && reset.object?["refresh_token"] == nil,
                expected: "no session in the reset's answer", got: "a session", reset)
            try await context.expect(
                await context.http.get("/auth/me", token: before.access), 401, nil, "a session from before the reset",
                evidence: [reset])
            try await context.expect(
                await context.refresh(before.refresh), 401, nil, "the refresh token of a session from before the reset",
                evidence: [reset])
            try await context.expect(
                await login(context, email, password), 401, "credentials_invalid", "the old password", evidence: [reset]
            )
            let signedIn = try await context.expect(
                await login(context, email, new), 200, nil, "the new password", evidence: [reset])
            context.deleted(email)
            adoptSession(context, signedIn, email)
            guard let access = (signedIn.object?["session"] as? [String: Any])?["access_token"] as? String else {
                throw CheckStop.cannotTell("the password sign-in answer has no session")
            }
            let (listed, list) = try await context.listedSessions(
                access, "the account's sessions after the reset and one login", evidence: [reset, signedIn])
            try context.require(
                listed == 1,
                expected: "Active sessions after the reset and one login: that one (the reset issues none)",
                got: "\(listed) sessions", reset, list)
        },
    ]
}
