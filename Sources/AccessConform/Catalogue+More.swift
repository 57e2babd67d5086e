import AccessCore
import Foundation

/// Checks beyond the rules issue 32 names first, family by family.
extension Catalogue {
    static let more: [Check] =
        moreSignIn + phoneCodes + moreSessions + moreReauth + moreLinks + providers
        + requests + recovery

    // MARK: signin

    static let moreSignIn: [Check] = [
        Check(
            .signInCodeResent,
            "A resent sign-in code works and the one before it does not; a replaced request cannot be resent",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown)
        ) { context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let old = try await context.messages.latest(.code, to: phone)
            try await context.pass(SendLimits.cooldown)
            try await context.expect(await context.resendSignIn(id), 202, nil, "a resend after the cooldown")
            let new = try await context.messages.latest(.code, to: phone)
            guard new != old else { throw CheckStop.cannotTell("the resent code is the same as the first") }
            let stale = try await context.verifySignIn(id, code: old)
            context.noteCreated(stale, destination: phone, channel: .phone)
            try await context.expect(stale, 401, "code_incorrect", "the code before the resend")
            let fresh = try await context.expect(
                await context.verifySignIn(id, code: new), 200, nil, "the resent code", evidence: [stale])
            context.noteCreated(fresh, destination: phone, channel: .phone)
            // "a replaced request may not": asking again for the same number replaces the first request.
            let other = context.freshPhone()
            let first = try await context.challenge(.phone, other)
            try await context.pass(SendLimits.cooldown)
            let again = try await context.setup(
                await context.startSignIn(.phone, other), 202, doing: "asking for a sign-in code again")
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                await context.resendSignIn(first), 410, "request_closed", "a resend of the request a new one replaced",
                evidence: [again])
        },
        Check(.signInProviderTokenInvalid, "A sign-in with an Apple token nobody issued answers 401") { context in
            try await context.expect(
                await context.http.post(
                    "/auth/sign-in/provider",
                    ["provider": "apple", "id_token": "conform-not-a-token", "device": Device.body]), 401,
                "provider_token_invalid", "an id token nobody issued")
        },
    ]

    // MARK: otp (codes texted to a signed-in account's phone)

    /// Asks for a re-auth code to the account's own phone; returns the request id.
    static func reauthCode(_ context: CheckContext, _ account: Account) async throws -> String {
        try await context.pass(SendLimits.cooldown)
        let asked = try await context.setup(
            await context.http.post(
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
        Check(
            .otpCodeIncorrectExhausted,
            "\(CodeRules.maxWrongAttempts) wrong phone codes kill the code: the right one then fails, a resend replaces it",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            var last: Exchange?
            for _ in 1...CodeRules.maxWrongAttempts {
                last = try await context.expect(
                    await verifyOTP(context, account, id, wrong(code)), 401, "code_incorrect", "a wrong code")
            }
            let remaining = last?.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == 0, expected: "attempts_remaining: 0 after \(CodeRules.maxWrongAttempts) wrong codes",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", last!)
            let killed = try await context.expect(
                await verifyOTP(context, account, id, code), 410, "code_expired",
                "the right code after \(CodeRules.maxWrongAttempts) wrong ones")
            // "a resend may replace it": the killed code's request takes a new code, which works.
            try await context.pass(SendLimits.cooldown)
            let renewed = try await context.expect(
                await context.http.post("/auth/phone/resend-otp", ["request_id": id], token: account.access), 202, nil,
                "a resend of the killed code", evidence: [killed])
            let replacement = try await context.messages.latest(.code, to: account.destination)
            try await context.expect(
                await verifyOTP(context, account, id, replacement), 200, nil, "the code that replaced the killed one",
                evidence: [renewed])
        },
        Check(
            .otpCodeIncorrect, "A wrong phone code is refused with the tries left",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) {
            context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            let answer = try await context.expect(
                await verifyOTP(context, account, id, wrong(code)), 401, "code_incorrect", "a wrong code")
            let remaining = answer.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == CodeRules.maxWrongAttempts - 1,
                expected: "attempts_remaining: \(CodeRules.maxWrongAttempts - 1)",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", answer)
        },
        Check(
            .otpCancelled, "A cancelled phone code stops working",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) {
            context in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            let cancelled = try await context.expect(
                await context.http.post("/auth/phone/cancel-otp", ["request_id": id], token: account.access), 200, nil,
                "cancelling the code")
            try await context.expect(
                await verifyOTP(context, account, id, code), 410, "code_expired", "the right code after cancelling it",
                evidence: [cancelled])
        },
        Check(
            .reauthPhoneMismatch, "A re-auth code goes only to the account's own number", needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            try await context.expect(
                await context.http.post(
                    "/auth/phone/request-otp", ["phone": context.freshPhone(), "purpose": "reauth"],
                    token: account.access), 422, "phone_mismatch", "a re-auth code to another number")
        },
    ]

    // MARK: session

    static let moreSessions: [Check] = [
        Check(.sessionRefreshInvalid, "A refresh token nobody issued answers 401 refresh_invalid") { context in
            try await context.expect(
                await context.refresh("conform-not-a-refresh-token"), 401, "refresh_invalid",
                "a refresh token nobody issued")
        },
        Check(
            .sessionCurrent, "Signing out this device's own session from the list answers 409",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            let grant = try await context.grant(account)
            let list = try await context.setup(
                await context.http.get("/me/sessions", token: account.access), 200, doing: "listing the sessions")
            let sessions = list.object?["sessions"] as? [[String: Any]] ?? []
            guard let current = sessions.first(where: { $0["is_current"] as? Bool == true })?["id"] as? String else {
                throw CheckStop.cannotTell("the session list marks no session as current")
            }
            try await context.expect(
                await context.http.send("DELETE", "/me/sessions/\(current)", token: account.access, reauth: grant), 409,
                "current_session", "signing out this device's own session")
        },
        Check(
            .sessionSignedOut, "Another device signed out from the list can no longer call nor refresh",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            let other = try await context.signIn(.email, account.destination)
            let grant = try await context.grant(account)
            let list = try await context.setup(
                await context.http.get("/me/sessions", token: account.access), 200, doing: "listing the sessions")
            let sessions = list.object?["sessions"] as? [[String: Any]] ?? []
            guard let id = sessions.first(where: { $0["is_current"] as? Bool != true })?["id"] as? String else {
                throw CheckStop.cannotTell("the session list has no other session")
            }
            let signedOut = try await context.expect(
                await context.http.send("DELETE", "/me/sessions/\(id)", token: account.access, reauth: grant), 204, nil,
                "signing the other device out")
            try await context.expect(
                await context.http.get("/auth/me", token: other.access), 401, "session_revoked",
                "the other device's access token after it was signed out", evidence: [signedOut])
            // "Signed out at once, refresh token included".
            try await context.expect(
                await context.refresh(other.refresh), 401, nil,
                "the other device's refresh token after it was signed out", evidence: [signedOut])
        },
    ]

    // MARK: reauth

    static let moreReauth: [Check] = []

    // MARK: link

    static let moreLinks: [Check] = [
        Check(
            .linkInspected, "Inspecting a live link says live and does not spend it",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            try await context.setup(
                await context.http.send("POST", "/auth/reauth/email", token: account.access), 202, 200,
                doing: "asking for a re-auth link")
            let link = try await context.messages.latest(.link, to: account.destination)
            let inspected = try await context.expect(
                await context.http.post("/auth/links/inspect", ["token": link]), 200, nil, "inspecting a live link")
            let state = inspected.object?["state"] as? String
            try context.require(state == "live", expected: "state: live", got: "state: \(state ?? "absent")", inspected)
            try await context.expect(
                await context.http.post("/auth/reauth/email/confirm", ["token": link], token: account.access), 200, nil,
                "the link after it was inspected", evidence: [inspected])
        }
    ]

    // MARK: connect and disconnect

    static let providers: [Check] = [
        Check(
            .connectProviderTokenInvalid, "Connecting Google with a token nobody issued answers 401",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.account()
            try await context.expect(
                await context.http.post(
                    "/me/auth-methods/connect", ["provider": "google", "id_token": "conform-not-a-token"],
                    token: account.access), 401, "provider_token_invalid", "a provider token nobody issued")
        }
    ]

    // MARK: http

    static let requests: [Check] = [
        Check(.httpUnsupportedMediaType, "A body sent as text/plain answers 415") { context in
            try await context.expect(
                await context.http.send(
                    "POST", "/auth/sign-in/code", body: Data(#"{"channel":"phone"}"#.utf8), contentType: "text/plain"),
                415, "unsupported_media_type", "a sign-in sent as text/plain")
        },
        Check(.httpPayloadTooLarge, "A body over \(RequestBounds.bodyBytes / 1024) KiB answers 413") { context in
            let padding = String(repeating: "a", count: RequestBounds.bodyBytes)
            try await context.expect(
                await context.http.send(
                    "POST", "/auth/sign-in/code", body: Data(#"{"channel":"phone","pad":"\#(padding)"}"#.utf8)),
                413, "payload_too_large", "a sign-in body over \(RequestBounds.bodyBytes / 1024) KiB")
        },
    ]

    // MARK: recovery

    static let recovery: [Check] = [
        Check(.recoveryAnswered, "Asking to recover an address nobody has answers 202 like any other") { context in
            try await context.expect(
                await context.http.post(
                    "/auth/recovery/start", ["email": context.freshEmail(), "device": Device.body]),
                202, nil, "recovery for an address with no account")
        },
        Check(.passwordResetAnswered, "Asking to reset the password of an address nobody has answers 202") {
            context in
            try await context.expect(
                await context.http.post("/auth/password/reset", ["email": context.freshEmail()]), 202, nil,
                "a password reset for an address with no account")
        },
    ]

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
