import AccessCore
import Foundation

/// Every check there is, one rule each. Rules of `Rule.allCases` without one are reported "not checked".
public enum Catalogue {
    public static let checks: [Check] =
        signIn + otp + sendLimits + sessions + reauth + links + disconnect + delete
        + http + more + round2 + twoFactor + worlds + guards + [grantsByTarget] + codeRoads + linkRoads
        + credentialRoads + factorRoads + adminRoads + effects + passkeys

    /// A session id no backend issued, of the contract's pattern: asking to sign it out is harmless.
    static let probeSessionID = "conform_probe_session"
    /// A passkey credential id no backend registered, base64url as the contract's pattern asks.
    static let probePasskeyID = "conform_probe_passkey"

    // MARK: signin

    static let signIn: [Check] = [
        Check(.signInCodeIncorrect, "A wrong sign-in code is refused with the tries left", needs: .init(messages: true))
        { context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let code = try await context.messages.latest(.code, to: phone)
            let answer = try await context.expect(
                await context.verifySignIn(id, code: wrong(code)), 401, "code_incorrect", "a wrong code")
            let remaining = answer.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == CodeRules.maxWrongAttempts - 1,
                expected: "attempts_remaining: \(CodeRules.maxWrongAttempts - 1)",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", answer)
        },
        Check(
            .signInCodeIncorrectExhausted,
            "\(CodeRules.maxWrongAttempts) wrong sign-in codes kill the code: the right one then fails, a resend replaces it",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let code = try await context.messages.latest(.code, to: phone)
            var last: Exchange?
            for _ in 1...CodeRules.maxWrongAttempts {
                last = try await context.expect(
                    await context.verifySignIn(id, code: wrong(code)), 401, "code_incorrect", "a wrong code")
            }
            let remaining = last?.errorMember?["attempts_remaining"] as? Int
            try context.require(
                remaining == 0, expected: "attempts_remaining: 0 after \(CodeRules.maxWrongAttempts) wrong codes",
                got: "attempts_remaining: \(remaining.map(String.init) ?? "absent")", last!)
            let answer = try await context.verifySignIn(id, code: code)
            context.noteCreated(answer, destination: phone, channel: .phone)
            let killed = try await context.expect(
                answer, 410, "code_expired", "the right code after \(CodeRules.maxWrongAttempts) wrong ones")
            // "a resend may replace it": the killed code's request takes a new code, which works.
            try await context.pass(SendLimits.cooldown)
            let renewed = try await context.expect(
                await context.resendSignIn(id), 202, nil, "a resend of the killed code", evidence: [killed])
            let fresh = try await context.verifySignIn(id, code: context.messages.latest(.code, to: phone))
            context.noteCreated(fresh, destination: phone, channel: .phone)
            try await context.expect(
                fresh, 200, nil, "the code that replaced the killed one", evidence: [renewed])
        },
        Check(.signInRequestClosed, "A used sign-in code cannot be resent", needs: .init(messages: true)) { context in
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            let code = try await context.messages.latest(.code, to: phone)
            let signedIn = try await context.setup(
                await context.verifySignIn(id, code: code), 200, doing: "signing in with the code")
            context.noteCreated(signedIn, destination: phone, channel: .phone)
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                await context.resendSignIn(id), 410, "request_closed", "a resend for a used code")
        },
    ]

    // MARK: otp

    static let otp: [Check] = []

    // MARK: session

    static let sessions: [Check] = [
        Check(
            .sessionRefreshed, "A refresh gives a new pair, the old access token stops working, limited stays limited",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.account()
            let refreshed = try await context.expect(
                await context.refresh(account.refresh), 200, nil, "a live refresh token refreshes")
            let access = (refreshed.object?["access_token"] as? String)
            let refresh = (refreshed.object?["refresh_token"] as? String)
            try context.require(
                access != nil && access != account.access && refresh != account.refresh,
                expected: "a new access and refresh token", got: "the same or no tokens", refreshed)
            try await context.expect(
                await context.http.get("/auth/me", token: account.access), 401, nil,
                "the old access token after a refresh")
            // "A session with limited access stays limited: refreshing is no way out of a recovery."
            let (email, password, link) = try await recoveryLink(context)
            let recovered = try await context.setup(
                await completeRecovery(context, link, password), 200, doing: "signing in with a recovery link")
            guard let limited = (recovered.object?["session"] as? [String: Any])?["refresh_token"] as? String else {
                throw CheckStop.cannotTell("the recovery answer has no refresh_token")
            }
            let again = try await context.expect(
                await context.refresh(limited), 200, nil, "refreshing a session with limited access")
            guard let access = again.object?["access_token"] as? String,
                let refresh = again.object?["refresh_token"] as? String
            else { throw CheckStop.cannotTell("the refresh answer has no tokens") }
            context.adopt(Account(destination: email, channel: .email, access: access, refresh: refresh, created: true))
            try await context.expect(
                await context.http.get("/me/delete-preflight", token: access), 403, "limited_access",
                "the refreshed limited session asking what stands in the way of deleting", evidence: [again])
        },
        Check(
            .sessionRefreshRetried,
            "The same refresh token again within \(time(RefreshRules.reuseInterval)) gives the same pair",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.account()
            let first = try await context.setup(await context.refresh(account.refresh), 200, doing: "refreshing")
            let again = try await context.expect(
                await context.refresh(account.refresh), 200, nil, "the same refresh token again at once")
            let same = (first.object?["refresh_token"] as? String) == (again.object?["refresh_token"] as? String)
            try context.require(same, expected: "the same pair again", got: "another pair", again)
        },
        Check(
            .sessionRefreshReused,
            "A rotated refresh token used after \(time(RefreshRules.reuseInterval)) is refused and ends the sign-in",
            needs: .init(messages: true, time: RefreshRules.reuseInterval + 1)
        ) { context in
            let account = try await context.newAccount()
            let rotated = try await context.setup(await context.refresh(account.refresh), 200, doing: "refreshing")
            guard let next = rotated.object?["refresh_token"] as? String else {
                throw CheckStop.cannotTell("the refresh answer has no refresh_token")
            }
            try await context.pass(RefreshRules.reuseInterval + 1)
            let reused = try await context.expect(
                await context.refresh(account.refresh), 401, "refresh_invalid",
                "the rotated refresh token again after \(time(RefreshRules.reuseInterval))")
            try await context.expect(
                await context.refresh(next), 401, nil, "the pair it was rotated into, once the old one was reused",
                evidence: [reused])
        },
    ]

    // MARK: reauth

    static let reauth: [Check] = []

    // MARK: link

    static let links: [Check] = []

    // MARK: connect and disconnect

    static let disconnect: [Check] = [
        Check(
            .disconnectNotLinked, "Disconnecting a provider that is not connected answers 422 not_linked",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.account()
            let methods = try await context.setup(
                await context.http.get("/me/auth-methods", token: account.access), 200, doing: "reading the methods")
            let linked = methods.object?["google_linked"] as? Bool
            guard linked != true else { throw CheckStop.skipped("the --account account has Google connected") }
            try await context.expect(
                await context.http.post("/me/auth-methods/disconnect", ["provider": "google"], token: account.access),
                422,
                "not_linked", "disconnecting Google from an account without it")
        }
    ]

    // MARK: delete

    static let delete: [Check] = [
        Check(
            .deletePreflightClear, "A new account has nothing in the way of deleting it", needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            let preflight = try await context.expect(
                await context.http.get("/me/delete-preflight", token: account.access), 200, nil, "the delete preflight")
            let blockers = preflight.object?["blockers"] as? [Any]
            try context.require(
                blockers?.isEmpty == true, expected: "blockers: []", got: "\(blockers?.count ?? -1) blockers",
                preflight)
        }
    ]

    // MARK: http

    static let http: [Check] = [
        Check(.httpNotFound, "A path the contract does not have answers 404") { context in
            try await context.expect(
                await context.http.get("/conform-no-such-endpoint"), 404, nil, "GET of a path nobody serves")
        },
        Check(.httpBadRequest, "A body that is not JSON answers 400 bad_request") { context in
            try await context.expect(
                await context.http.send("POST", "/auth/sign-in/code", body: Data("{".utf8)), 400, "bad_request",
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
