import AccessCore
import Foundation

/// Every check there is, one rule each. Rules of `Rule.allCases` without one are reported "not checked".
public enum Catalogue {
    public static let checks: [Check] =
        signIn + otp + rateLimits + sessions + reauth + links + disconnect + delete
        + http + more + round2 + twoFactor + worlds

    /// A session id no backend issued, of the contract's pattern: asking to sign it out is harmless.
    static let probeSessionID = "conform_probe_session"

    // MARK: signin

    static let signIn: [Check] = [
        Check(.signInSignedUp, "A code for a new phone number signs up a new account", needs: .init(messages: true)) {
            context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let code = try await context.messages.latest(.code, to: phone)
            let answer = try await context.expect(
                context.verifySignIn(id, code: code), 200, nil, "the right code for a new number signs up")
            context.noteCreated(answer, destination: phone, channel: .phone)
            try context.require(
                answer.object?["is_new_user"] as? Bool == true, expected: "is_new_user: true",
                got: "is_new_user: \(answer.object?["is_new_user"].map { "\($0)" } ?? "absent")", answer)
        },
        Check(
            .signInSignedIn, "A code for an existing account signs into it",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) {
            context in
            let account = try await context.account()
            // The sign-in above sent a code to the same address: the next one waits for the cooldown.
            try await context.pass(SendLimits.cooldown)
            let id = try await context.challenge(account.channel, account.destination)
            let code = try await context.messages.latest(.code, to: account.destination)
            let answer = try await context.expect(
                context.verifySignIn(id, code: code), 200, nil, "the right code signs in")
            try context.require(
                answer.object?["is_new_user"] as? Bool == false, expected: "is_new_user: false",
                got: "is_new_user: \(answer.object?["is_new_user"].map { "\($0)" } ?? "absent")", answer)
        },
        Check(.signInCodeIncorrect, "A wrong sign-in code is refused with the tries left", needs: .init(messages: true))
        { context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let code = try await context.messages.latest(.code, to: phone)
            let answer = try await context.expect(
                context.verifySignIn(id, code: wrong(code)), 401, "code_incorrect", "a wrong code")
            let remaining = answer.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == CodeRules.maxWrongAttempts - 1,
                expected: "attempts_remaining: \(CodeRules.maxWrongAttempts - 1)",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", answer)
        },
        Check(
            .signInCodeIncorrectExhausted, "5 wrong sign-in codes kill the code: the right one then fails",
            needs: .init(messages: true)
        ) { context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let code = try await context.messages.latest(.code, to: phone)
            var last: Exchange?
            for _ in 1...CodeRules.maxWrongAttempts {
                last = try await context.expect(
                    context.verifySignIn(id, code: wrong(code)), 401, "code_incorrect", "a wrong code")
            }
            let remaining = last?.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == 0, expected: "attempts_remaining: 0 after \(CodeRules.maxWrongAttempts) wrong codes",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", last!)
            let answer = try await context.verifySignIn(id, code: code)
            context.noteCreated(answer, destination: phone, channel: .phone)
            try context.expect(answer, 410, "code_expired", "the right code after 5 wrong ones")
        },
        Check(.signInChallengeUnknown, "Verifying a sign-in nobody started answers 404 challenge_not_found") {
            context in
            try await context.expect(
                context.verifySignIn("conform_no_such_challenge", code: "123456"), 404, "challenge_not_found",
                "a challenge never issued")
        },
        Check(.signInRequestClosed, "A used sign-in code cannot be resent", needs: .init(messages: true)) { context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let code = try await context.messages.latest(.code, to: phone)
            let signedIn = try await context.setup(
                context.verifySignIn(id, code: code), 200, doing: "signing in with the code")
            context.noteCreated(signedIn, destination: phone, channel: .phone)
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                context.resendSignIn(id), 410, "request_closed", "a resend for a used code")
        },
    ]

    // MARK: otp

    static let otp: [Check] = [
        Check(
            .otpExpired, "A code works until 5 min and not after",
            needs: .init(messages: true, time: CodeRules.lifetime + 1)
        ) { context in
            // Two numbers sent at the same moment: one verified just before the end, one just after.
            let early = context.freshPhone()
            let late = context.freshPhone()
            let earlyID = try await context.challenge(.phone, early)
            let lateID = try await context.challenge(.phone, late)
            let earlyCode = try await context.messages.latest(.code, to: early)
            let lateCode = try await context.messages.latest(.code, to: late)
            try await context.pass(CodeRules.lifetime - 1)
            let kept = try await context.expect(
                context.verifySignIn(earlyID, code: earlyCode), 200, nil, "the right code 1 s before its 5 min")
            context.noteCreated(kept, destination: early, channel: .phone)
            try await context.pass(2)
            let answer = try await context.verifySignIn(lateID, code: lateCode)
            context.noteCreated(answer, destination: late, channel: .phone)
            try context.expect(answer, 410, "code_expired", "the right code 1 s after its 5 min")
        }
    ]

    // MARK: rate_limit

    static let rateLimits: [Check] = [
        Check(
            .rateLimitCooldown, "A resend within 30 s is refused; after 30 s it goes",
            needs: .init(time: SendLimits.cooldown)
        ) { context in
            let id = try await context.challenge(.phone, context.freshPhone())
            try await context.pass(SendLimits.cooldown - 1)
            let refused = try await context.expect(
                context.resendSignIn(id), 429, "rate_limited", "a resend 1 s before the cooldown ends")
            let limit = refused.errorMember?["limit"] as? String
            try context.require(
                limit == "cooldown", expected: "limit: cooldown", got: "limit: \(limit ?? "absent")", refused)
            try await context.pass(1)
            try await context.expect(context.resendSignIn(id), 202, nil, "a resend once the cooldown ended")
        },
        Check(
            .rateLimitResendWindow, "3 resends in 15 min go; the 4th is refused",
            needs: .init(
                time: Double(SendLimits.maxResendsPerWindow + 1) * SendLimits.cooldown,
                longestWait: SendLimits.cooldown)
        ) { context in
            let id = try await context.challenge(.phone, context.freshPhone())
            for _ in 1...SendLimits.maxResendsPerWindow {
                try await context.pass(SendLimits.cooldown)
                try await context.expect(context.resendSignIn(id), 202, nil, "a resend within the 3 allowed")
            }
            try await context.pass(SendLimits.cooldown)
            let refused = try await context.expect(
                context.resendSignIn(id), 429, "rate_limited", "the 4th resend within 15 min")
            let limit = refused.errorMember?["limit"] as? String
            try context.require(
                limit == "resend_window", expected: "limit: resend_window", got: "limit: \(limit ?? "absent")",
                refused)
        },
    ]

    // MARK: session

    static let sessions: [Check] = [
        Check(.sessionInvalid, "A call without a token, or with one nobody issued, answers 401") { context in
            try await context.expect(context.http.get("/auth/me"), 401, nil, "GET /auth/me without a token")
            try await context.expect(
                context.http.get("/auth/me", token: "conform-not-a-token"), 401, nil,
                "GET /auth/me with a token nobody issued")
        },
        Check(
            .sessionRefreshed, "A refresh gives a new pair and the old access token stops working",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.account()
            let refreshed = try await context.expect(
                context.refresh(account.refresh), 200, nil, "a live refresh token refreshes")
            let access = (refreshed.object?["access_token"] as? String)
            let refresh = (refreshed.object?["refresh_token"] as? String)
            try context.require(
                access != nil && access != account.access && refresh != account.refresh,
                expected: "a new access and refresh token", got: "the same or no tokens", refreshed)
            try await context.expect(
                context.http.get("/auth/me", token: account.access), 401, nil, "the old access token after a refresh")
        },
        Check(
            .sessionRefreshRetried, "The same refresh token again within 10 s gives the same pair",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.account()
            let first = try await context.setup(context.refresh(account.refresh), 200, doing: "refreshing")
            let again = try await context.expect(
                context.refresh(account.refresh), 200, nil, "the same refresh token again at once")
            let same = (first.object?["refresh_token"] as? String) == (again.object?["refresh_token"] as? String)
            try context.require(same, expected: "the same pair again", got: "another pair", again)
        },
        Check(
            .sessionRefreshReused, "A rotated refresh token used after 10 s is refused and ends the sign-in",
            needs: .init(messages: true, time: RefreshRules.reuseInterval + 1)
        ) { context in
            let account = try await context.newAccount()
            let rotated = try await context.setup(context.refresh(account.refresh), 200, doing: "refreshing")
            guard let next = rotated.object?["refresh_token"] as? String else {
                throw CheckStop.cannotTell("the refresh answer has no refresh_token")
            }
            try await context.pass(RefreshRules.reuseInterval + 1)
            let reused = try await context.expect(
                context.refresh(account.refresh), 401, "refresh_invalid", "the rotated refresh token again after 10 s")
            try await context.expect(
                context.refresh(next), 401, nil, "the pair it was rotated into, once the old one was reused",
                evidence: [reused])
        },
        Check(.sessionLogout, "Logging out ends the session's access token", needs: .init(messages: true)) {
            context in
            let account = try await context.newAccount()
            try await context.expect(
                context.http.send("POST", "/auth/logout", token: account.access), 204, nil, "logging out")
            try await context.expect(
                context.http.get("/auth/me", token: account.access), 401, nil, "the access token after logging out")
        },
    ]

    // MARK: reauth

    static let reauth: [Check] = [
        Check(.reauthRequired, "Signing a device out without Verify it's you is refused", needs: .init(messages: true))
        {
            context in
            let account = try await context.account(.email)
            try await context.expect(
                context.http.send("DELETE", "/me/sessions/\(probeSessionID)", token: account.access), 403,
                "reauth_required", "signing a session out without a re-auth token")
        },
        Check(
            .reauthGranted, "Verify it's you lasts 15 min and not longer",
            needs: .init(
                messages: true, time: SendLimits.cooldown + ReauthRules.window + 1,
                longestWait: ReauthRules.window)
        ) { context in
            let account = try await context.account(.email)
            // An id that is no session: without a live grant 403, with one 404 (the grant is checked first). The
            // 403 also shows the endpoint is there, so a later 404 is the backend's answer.
            let probe = "/me/sessions/\(probeSessionID)"
            let without = try await context.setup(
                context.http.send("DELETE", probe, token: account.access), 403,
                doing: "signing a session out unverified")
            let grant = try await context.grant(account)
            try await context.pass(ReauthRules.window - 1)
            let live = try await context.expect(
                context.http.send("DELETE", probe, token: account.access, reauth: grant), 404, "not_found",
                "a grant 1 s before its 15 min ends (a session id nobody has: 404)", evidence: [without])
            try await context.pass(2)
            try await context.expect(
                context.http.send("DELETE", probe, token: account.access, reauth: grant), 403, "reauth_required",
                "the same grant 1 s after its 15 min", evidence: [live], present: true)
        },
    ]

    // MARK: link

    static let links: [Check] = [
        Check(
            .linkExpired, "A Verify it's you link works once", needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.account(.email)
            try await context.pass(SendLimits.cooldown)
            try context.setup(
                await context.http.send("POST", "/auth/reauth/email", token: account.access), 202, 200,
                doing: "asking for a re-auth link")
            let link = try await context.messages.latest(.link, to: account.destination)
            let first = try await context.expect(
                context.http.post("/auth/reauth/email/confirm", ["token": link], token: account.access), 200, nil,
                "the link the first time")
            try await context.expect(
                context.http.post("/auth/reauth/email/confirm", ["token": link], token: account.access), 410,
                "link_expired", "the same link a second time", evidence: [first])
        },
        Check(.linkUnknown, "A link nobody issued answers 404 link_not_found", needs: .init(messages: true)) {
            context in
            let account = try await context.account(.email)
            try await context.expect(
                context.http.post(
                    "/auth/reauth/email/confirm", ["token": "conform-no-such-link"], token: account.access), 404,
                "link_not_found", "a link token never issued")
        },
    ]

    // MARK: connect and disconnect

    static let disconnect: [Check] = [
        Check(
            .disconnectLastMethod, "The only way to sign in cannot be disconnected",
            needs: .init(
                scenario: "apple-only",
                referenceOnly: "needs an account whose only sign-in is Apple (the reference backend's scenario)")
        ) { context in
            let account = try await context.reference!.session()
            try await context.expect(
                context.http.post("/me/auth-methods/disconnect", ["provider": "apple"], token: account.access), 409,
                "last_method", "disconnecting the account's only method")
        },
        Check(
            .disconnectNotLinked, "Disconnecting a provider that is not connected answers 422 not_linked",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.account()
            let methods = try await context.setup(
                context.http.get("/me/auth-methods", token: account.access), 200, doing: "reading the methods")
            let linked = methods.object?["google_linked"] as? Bool
            guard linked != true else { throw CheckStop.skipped("the --account account has Google connected") }
            try await context.expect(
                context.http.post("/me/auth-methods/disconnect", ["provider": "google"], token: account.access), 422,
                "not_linked", "disconnecting Google from an account without it")
        },
    ]

    // MARK: delete

    static let delete: [Check] = [
        Check(
            .deletePreflightBlocked, "Upcoming sessions stand in the way of deleting, soonest first",
            needs: .init(
                scenario: "coach-sessions",
                referenceOnly: "needs an account with upcoming sessions (the reference backend's scenario)")
        ) { context in
            let account = try await context.reference!.session()
            let preflight = try await context.expect(
                context.http.get("/me/delete-preflight", token: account.access), 200, nil, "the delete preflight")
            let blockers = preflight.object?["blockers"] as? [[String: Any]] ?? []
            let starts = (blockers.first?["items"] as? [[String: Any]] ?? []).compactMap { $0["starts_at"] as? String }
            try context.require(
                !blockers.isEmpty && starts.count > 1 && starts == starts.sorted(),
                expected: "a blocker listing the upcoming sessions soonest first",
                got: blockers.isEmpty ? "no blockers" : "\(starts.count) sessions, in another order", preflight)
        },
        Check(
            .deleteBlocked, "DELETE /me with a blocker answers 409 delete_blocked before asking to Verify it's you",
            needs: .init(
                scenario: "coach-sessions",
                referenceOnly: "needs an account with upcoming sessions (the reference backend's scenario)")
        ) { context in
            let account = try await context.reference!.session()
            try await context.expect(
                context.http.send("DELETE", "/me", token: account.access), 409, "delete_blocked",
                "deleting with upcoming sessions, no re-auth token")
        },
        Check(
            .deletePreflightClear, "A new account has nothing in the way of deleting it", needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            let preflight = try await context.expect(
                context.http.get("/me/delete-preflight", token: account.access), 200, nil, "the delete preflight")
            let blockers = preflight.object?["blockers"] as? [Any]
            try context.require(
                blockers?.isEmpty == true, expected: "blockers: []", got: "\(blockers?.count ?? -1) blockers",
                preflight)
        },
        Check(
            .deleteDone, "Deleting an account after Verify it's you ends its sessions",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) {
            context in
            let account = try await context.newAccount(.email)
            let grant = try await context.grant(account)
            try await context.expect(
                context.http.send("DELETE", "/me", token: account.access, reauth: grant), 200, nil,
                "deleting after Verify it's you")
            context.deleted(account.destination)
            try await context.expect(
                context.http.get("/auth/me", token: account.access), 401, nil, "the access token of a deleted account")
        },
    ]

    // MARK: http

    static let http: [Check] = [
        Check(.httpNotFound, "A path the contract does not have answers 404") { context in
            try await context.expect(
                context.http.get("/conform-no-such-endpoint"), 404, nil, "GET of a path nobody serves")
        },
        Check(.httpBadRequest, "A body that is not JSON answers 400 bad_request") { context in
            try await context.expect(
                context.http.send("POST", "/auth/sign-in/code", body: Data("{".utf8)), 400, "bad_request",
                "a sign-in with a broken JSON body")
        },
    ]

    /// A code of the same length that is not `code`.
    static func wrong(_ code: String) -> String {
        guard let first = code.first else { return "000000" }
        let replaced: Character = first == "9" ? "0" : Character(String((Int(String(first)) ?? 0) + 1))
        return String(replaced) + code.dropFirst()
    }
}

extension CheckContext {
    func refresh(_ token: String) async throws -> Exchange {
        try await http.post("/auth/refresh", ["refresh_token": token])
    }

    /// Keeps an account a check's sign-in created by surprise (a rule not kept), so it is cleaned up too.
    func noteCreated(_ answer: Exchange, destination: String, channel: Channel) {
        guard answer.status == 200, let object = answer.object, object["is_new_user"] as? Bool == true,
            let session = object["session"] as? [String: Any], let access = session["access_token"] as? String,
            let refresh = session["refresh_token"] as? String
        else { return }
        adopt(Account(destination: destination, channel: channel, access: access, refresh: refresh, created: true))
    }
}
