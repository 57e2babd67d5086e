import AccessCore
import Foundation

/// Checks beyond the rules issue 32 names first, family by family.
extension Catalogue {
    static let more: [Check] =
        moreSignIn + phoneCodes + moreSessions + moreReauth + moreLinks + providers
        + deleteHolds + requests + recovery + [dailyCap]

    // MARK: signin

    static let moreSignIn: [Check] = [
        Check(.signInCodeSent, "Asking for a sign-in code answers 202 with a challenge that lives 5 min") { context in
            let answer = try await context.expect(
                context.startSignIn(.phone, context.freshPhone()), 202, nil, "a sign-in code for a valid number")
            let id = answer.object?["challenge_id"] as? String
            // Both dates are on the backend's clock: the code's end is 5 min after now, its resend 30 s.
            let lifetime = seconds(from: answer.object?["resend_after"], to: answer.object?["expires_at"])
                .map { $0 + SendLimits.cooldown }
            try context.require(
                id != nil && lifetime.map { abs($0 - CodeRules.lifetime) <= 5 } == true,
                expected: "a challenge_id and expires_at 5 min after now",
                got:
                    "challenge_id \(id == nil ? "absent" : "present"), expires in \(lifetime.map { "\(Int($0)) s" } ?? "?")",
                answer)
        },
        Check(
            .signInCodeResent, "A resent sign-in code works and the one before it does not",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let old = try await context.messages.latest(.code, to: phone)
            try await context.pass(SendLimits.cooldown)
            try await context.expect(context.resendSignIn(id), 202, nil, "a resend after the cooldown")
            let new = try await context.messages.latest(.code, to: phone)
            guard new != old else { throw CheckStop.cannotTell("the resent code is the same as the first") }
            let stale = try await context.verifySignIn(id, code: old)
            context.noteCreated(stale, destination: phone, channel: .phone)
            try context.expect(stale, 401, "code_incorrect", "the code before the resend")
            let fresh = try await context.expect(
                context.verifySignIn(id, code: new), 200, nil, "the resent code", evidence: [stale])
            context.noteCreated(fresh, destination: phone, channel: .phone)
        },
        Check(.signInProviderTokenInvalid, "A sign-in with an Apple token nobody issued answers 401") { context in
            try await context.expect(
                context.http.post(
                    "/auth/sign-in/provider",
                    ["provider": "apple", "id_token": "conform-not-a-token", "device": Device.body]), 401,
                "provider_token_invalid", "an id token nobody issued")
        },
        Check(.deviceInvalid, "A sign-in naming a device with an empty name answers 422") { context in
            var device = Device.body
            device["device_name"] = ""
            try await context.expect(
                context.http.post(
                    "/auth/sign-in/code",
                    ["channel": "phone", "phone": context.freshPhone(), "device": device]), 422, nil,
                "a sign-in whose device has no name")
        },
        Check(.phoneInvalid, "A sign-in code for a number no country has answers 422 phone_invalid") { context in
            try await context.expect(
                context.startSignIn(.phone, "+99912"), 422, "phone_invalid", "a sign-in code for +99912")
        },
        Check(.emailInvalid, "A sign-in code for an address that is not one answers 422 invalid_email") { context in
            try await context.expect(
                context.startSignIn(.email, "not-an-address"), 422, "invalid_email",
                "a sign-in code for not-an-address")
        },
    ]

    // MARK: otp (codes texted to a signed-in account's phone)

    /// Asks for a re-auth code to the account's own phone; returns the request id.
    static func reauthCode(_ context: CheckContext, _ account: Account) async throws -> String {
        try await context.pass(SendLimits.cooldown)
        let asked = try await context.setup(
            context.http.post(
                "/auth/phone/request-otp", ["phone": account.destination, "purpose": "reauth"], token: account.access),
            202, 200, doing: "asking for a re-auth code")
        guard let id = asked.object?["request_id"] as? String else {
            throw CheckStop.cannotTell("the code answer has no request_id")
        }
        return id
    }

    static func verifyOTP(
        _ context: CheckContext, _ account: Account, _ id: String, _ code: String
    ) async throws
        -> Exchange
    {
        try await context.http.post(
            "/auth/phone/verify-otp", ["request_id": id, "code": code], token: account.access)
    }

    static let phoneCodes: [Check] = [
        Check(.otpVerified, "The right phone code gives a re-auth grant", needs: .init(messages: true, time: 30)) {
            context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            let answer = try await context.expect(verifyOTP(context, account, id, code), 200, nil, "the right code")
            let grant = (answer.object?["reauth"] as? [String: Any])?["reauth_token"] as? String
            try context.require(grant != nil, expected: "a reauth token", got: "none", answer)
        },
        Check(
            .otpCodeIncorrectExhausted, "5 wrong phone codes kill the code: the right one then fails",
            needs: .init(messages: true, time: 30)
        ) { context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            var last: Exchange?
            for _ in 1...CodeRules.maxWrongAttempts {
                last = try await context.expect(
                    verifyOTP(context, account, id, wrong(code)), 401, "code_incorrect", "a wrong code")
            }
            let remaining = last?.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == 0, expected: "attempts_remaining: 0 after 5 wrong codes",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", last!)
            try await context.expect(
                verifyOTP(context, account, id, code), 410, "code_expired", "the right code after 5 wrong ones")
        },
        Check(
            .otpCodeIncorrect, "A wrong phone code is refused with the tries left",
            needs: .init(messages: true, time: 30)
        ) {
            context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            let answer = try await context.expect(
                verifyOTP(context, account, id, wrong(code)), 401, "code_incorrect", "a wrong code")
            let remaining = answer.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == CodeRules.maxWrongAttempts - 1, expected: "attempts_remaining: 4",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", answer)
        },
        Check(.otpCancelled, "A cancelled phone code stops working", needs: .init(messages: true, time: 30)) {
            context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            let cancelled = try await context.expect(
                context.http.post("/auth/phone/cancel-otp", ["request_id": id], token: account.access), 200, nil,
                "cancelling the code")
            try await context.expect(
                verifyOTP(context, account, id, code), 410, "code_expired", "the right code after cancelling it",
                evidence: [cancelled])
        },
        Check(.otpRequestUnknown, "Verifying a phone code nobody asked for answers 404", needs: .init(messages: true)) {
            context in
            let account = try await context.account()
            try await context.expect(
                verifyOTP(context, account, "otp_conform_unknown", "123456"), 404, "otp_request_not_found",
                "a code request never made")
        },
        Check(
            .reauthPhoneMismatch, "A re-auth code goes only to the account's own number", needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            try await context.expect(
                context.http.post(
                    "/auth/phone/request-otp", ["phone": context.freshPhone(), "purpose": "reauth"],
                    token: account.access), 422, "phone_mismatch", "a re-auth code to another number")
        },
    ]

    // MARK: session

    static let moreSessions: [Check] = [
        Check(.sessionRefreshInvalid, "A refresh token nobody issued answers 401 refresh_invalid") { context in
            try await context.expect(
                context.refresh("conform-not-a-refresh-token"), 401, "refresh_invalid", "a refresh token nobody issued")
        },
        Check(
            .sessionCurrent, "Signing out this device's own session from the list answers 409",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            let grant = try await context.grant(account)
            let list = try await context.setup(
                context.http.get("/me/sessions", token: account.access), 200, doing: "listing the sessions")
            let sessions = list.object?["sessions"] as? [[String: Any]] ?? []
            guard let current = sessions.first(where: { $0["is_current"] as? Bool == true })?["id"] as? String else {
                throw CheckStop.cannotTell("the session list marks no session as current")
            }
            try await context.expect(
                context.http.send("DELETE", "/me/sessions/\(current)", token: account.access, reauth: grant), 409,
                "current_session", "signing out this device's own session")
        },
        Check(
            .sessionSignedOut, "Another device signed out from the list can no longer call",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            let other = try await context.signIn(.email, account.destination)
            let grant = try await context.grant(account)
            let list = try await context.setup(
                context.http.get("/me/sessions", token: account.access), 200, doing: "listing the sessions")
            let sessions = list.object?["sessions"] as? [[String: Any]] ?? []
            guard let id = sessions.first(where: { $0["is_current"] as? Bool != true })?["id"] as? String else {
                throw CheckStop.cannotTell("the session list has no other session")
            }
            let signedOut = try await context.expect(
                context.http.send("DELETE", "/me/sessions/\(id)", token: account.access, reauth: grant), 204, nil,
                "signing the other device out")
            try await context.expect(
                context.http.get("/auth/me", token: other.access), 401, "session_revoked",
                "the other device's access token after it was signed out", evidence: [signedOut])
        },
    ]

    // MARK: reauth

    static let moreReauth: [Check] = [
        Check(
            .reauthMethodUnavailable, "Verify it's you by password on an account without one answers 422",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            try await context.expect(
                context.http.post(
                    "/auth/reauth/password", ["password": "conform-not-the-password"], token: account.access),
                422, "method_unavailable", "a password re-auth on a phone-only account")
        }
    ]

    // MARK: link

    static let moreLinks: [Check] = [
        Check(
            .linkSuperseded, "A newer Verify it's you link replaces the one before",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            try await context.setup(
                context.http.send("POST", "/auth/reauth/email", token: account.access), 202, 200,
                doing: "asking for a re-auth link")
            let first = try await context.messages.latest(.link, to: account.destination)
            try await context.pass(SendLimits.cooldown)
            try await context.setup(
                context.http.send("POST", "/auth/reauth/email", token: account.access), 202, 200,
                doing: "asking for another re-auth link")
            try await context.expect(
                context.http.post("/auth/reauth/email/confirm", ["token": first], token: account.access), 410,
                "link_superseded", "the first link once a newer one was sent")
        },
        Check(
            .linkInspected, "Inspecting a live link says live and does not spend it",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            try await context.setup(
                context.http.send("POST", "/auth/reauth/email", token: account.access), 202, 200,
                doing: "asking for a re-auth link")
            let link = try await context.messages.latest(.link, to: account.destination)
            let inspected = try await context.expect(
                context.http.post("/auth/links/inspect", ["token": link]), 200, nil, "inspecting a live link")
            let state = inspected.object?["state"] as? String
            try context.require(state == "live", expected: "state: live", got: "state: \(state ?? "absent")", inspected)
            try await context.expect(
                context.http.post("/auth/reauth/email/confirm", ["token": link], token: account.access), 200, nil,
                "the link after it was inspected", evidence: [inspected])
        },
    ]

    // MARK: connect and disconnect

    static let providers: [Check] = [
        Check(
            .connectProviderTokenInvalid, "Connecting Google with a token nobody issued answers 401",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.account()
            try await context.expect(
                context.http.post(
                    "/me/auth-methods/connect", ["provider": "google", "id_token": "conform-not-a-token"],
                    token: account.access), 401, "provider_token_invalid", "a provider token nobody issued")
        }
    ]

    // MARK: delete and hold

    static let deleteHolds: [Check] = [
        Check(
            .holdPhoneRecentlyDeleted, "A deleted account's number cannot sign up again at once",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            let deleted = try await context.setup(
                context.http.send("DELETE", "/me", token: account.access, reauth: grant), 200,
                doing: "deleting the account")
            context.deleted(account.destination)
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                context.startSignIn(.phone, account.destination), 409, "recently_deleted",
                "a sign-up with the number of an account deleted a minute ago", evidence: [deleted])
        }
    ]

    // MARK: http

    static let requests: [Check] = [
        Check(.httpUnsupportedMediaType, "A body sent as text/plain answers 415") { context in
            try await context.expect(
                context.http.send(
                    "POST", "/auth/sign-in/code", body: Data(#"{"channel":"phone"}"#.utf8), contentType: "text/plain"),
                415, "unsupported_media_type", "a sign-in sent as text/plain")
        },
        Check(.httpPayloadTooLarge, "A body over 64 KiB answers 413") { context in
            let padding = String(repeating: "a", count: 70 * 1024)
            try await context.expect(
                context.http.send(
                    "POST", "/auth/sign-in/code", body: Data(#"{"channel":"phone","pad":"\#(padding)"}"#.utf8)),
                413, "payload_too_large", "a 70 KiB sign-in body")
        },
    ]

    // MARK: recovery

    static let recovery: [Check] = [
        Check(.recoveryLinkUnknown, "Checking a recovery link nobody issued answers 404 link_not_found") { context in
            try await context.expect(
                context.http.post("/auth/recovery/check", ["token": "conform-no-such-link"]), 404, "link_not_found",
                "a recovery link never issued")
        },
        Check(.recoveryAnswered, "Asking to recover an address nobody has answers 202 like any other") { context in
            try await context.expect(
                context.http.post("/auth/recovery/start", ["email": context.freshEmail(), "device": Device.body]),
                202, nil, "recovery for an address with no account")
        },
        Check(.passwordResetAnswered, "Asking to reset the password of an address nobody has answers 202") {
            context in
            try await context.expect(
                context.http.post("/auth/password/reset", ["email": context.freshEmail()]), 202, nil,
                "a password reset for an address with no account")
        },
    ]

    // MARK: rate_limit

    /// 5 sends to one address in 24 h: the start and 3 resends, a 4th resend once the first left the 15-min
    /// window, then one more is refused.
    static let dailyCap = Check(
        .rateLimitDailyCap, "The 6th code to one number within 24 h is refused",
        needs: .init(
            time: 4 * SendLimits.cooldown + SendLimits.resendWindow - 2 * SendLimits.cooldown + 2,
            longestWait: SendLimits.resendWindow)
    ) { context in
        let id = try await context.challenge(.phone, context.freshPhone())
        for _ in 1...SendLimits.maxResendsPerWindow {
            try await context.pass(SendLimits.cooldown)
            try await context.setup(context.resendSignIn(id), 202, doing: "resending within the limits")
        }
        // The first resend (at 30 s) leaves the 15-min window at 30 s + 15 min.
        try await context.pass(SendLimits.resendWindow - 2 * SendLimits.cooldown + 1)
        try await context.setup(context.resendSignIn(id), 202, doing: "the 5th send of the day")
        try await context.pass(SendLimits.cooldown + 1)
        let refused = try await context.expect(
            context.resendSignIn(id), 429, "rate_limited", "the 6th send to one number within 24 h")
        let limit = refused.errorMember?["limit"] as? String
        try context.require(
            limit == "daily_cap", expected: "limit: daily_cap", got: "limit: \(limit ?? "absent")", refused)
    }

    /// Seconds between two date-time members; nil when either is not one.
    static func seconds(from start: Any?, to end: Any?) -> Double? {
        guard let start = date(start), let end = date(end) else { return nil }
        return end.timeIntervalSince(start)
    }

    static func date(_ value: Any?) -> Date? {
        guard let text = value as? String else { return nil }
        let whole = Date.ISO8601FormatStyle()
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return (try? whole.parse(text)) ?? (try? fractional.parse(text))
    }
}
