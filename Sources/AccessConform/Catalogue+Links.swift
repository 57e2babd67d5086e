import AccessCore
import Foundation

/// Re-auth and email change links, the email hold, and the reference backend's connection faults.
extension Catalogue {
    static let round3: [Check] = emailLinks + [emailHold] + connectionFaults + hourlyCaps + connections

    // MARK: link and email

    static let emailLinks: [Check] = [
        Check(
            .linkSent, "Asking for a Verify it's you link emails one that opens the window",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            let sent = try await context.expect(
                context.http.send("POST", "/auth/reauth/email", token: account.access), 202, nil, "asking for a link")
            let link = try await context.messages.latest(.link, to: account.destination)
            let opened = try await context.expect(
                context.http.post("/auth/reauth/email/confirm", ["token": link], token: account.access), 200, nil,
                "opening the link", evidence: [sent])
            try context.require(
                opened.object?["reauth_token"] is String, expected: "a reauth_token", got: "none", opened)
        },
        Check(
            .emailLinkResent, "A resent email link works and the one before it does not",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            let email = context.freshEmail()
            try await context.setup(
                context.http.post(
                    "/auth/email/add-with-password", ["email": email, "password": freshPassword()],
                    token: account.access, reauth: grant), 202, doing: "adding an email")
            let old = try await context.messages.latest(.link, to: email)
            try await context.pass(SendLimits.cooldown)
            let resent = try await context.expect(
                context.http.send("POST", "/auth/email/resend", token: account.access), 202, nil, "resending the link")
            let new = try await context.messages.latest(.link, to: email)
            guard new != old else { throw CheckStop.cannotTell("the resent link is the same as the first") }
            let stale = try await context.expect(
                context.http.post("/auth/email/verify", ["token": old]), 410, nil, "the link before the resend",
                evidence: [resent])
            try await context.expect(
                context.http.post("/auth/email/verify", ["token": new]), 200, nil, "the resent link", evidence: [stale])
        },
        Check(
            .emailReverted, "The old address's link undoes an email change and ends the account's sessions",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount(.email)
            let new = context.freshEmail()
            try await context.setup(
                context.http.post("/auth/email/request-change", ["email": new], token: account.access), 202,
                doing: "changing the email")
            let link = try await context.messages.latest(.link, to: new)
            let changed = try await context.setup(
                context.http.post("/auth/email/verify", ["token": link]), 200, doing: "opening the change's link")
            let revert = try await context.messages.latest(.link, to: account.destination)
            let reverted = try await context.expect(
                context.http.post("/auth/email/revert", ["token": revert]), 200, nil, "the old address's revert link",
                evidence: [changed])
            try await context.expect(
                context.http.get("/auth/me", token: account.access), 401, nil, "a session from before the revert",
                evidence: [reverted])
        },
    ]

    // MARK: hold

    static let emailHold = Check(
        .holdEmailRecentlyDeleted, "A deleted account's email cannot sign up again at once",
        needs: .init(messages: true, time: 2 * SendLimits.cooldown)
    ) { context in
        let account = try await context.newAccount(.email)
        let grant = try await context.grant(account)
        let deleted = try await context.setup(
            context.http.send("DELETE", "/me", token: account.access, reauth: grant), 200, doing: "deleting the account"
        )
        context.deleted(account.destination)
        try await context.pass(SendLimits.cooldown)
        try await context.expect(
            context.startSignIn(.email, account.destination), 409, "recently_deleted",
            "a sign-up with the email of an account deleted a minute ago", evidence: [deleted])
    }

    // MARK: fault

    /// Sets faults (a `POST /_admin/faults` body) for `request`, and clears them whatever happens.
    static func withFaults(
        _ context: CheckContext, _ faults: [String: Any], _ request: () async throws -> Exchange
    ) async throws -> Exchange {
        try await context.setup(context.http.post("/_admin/faults", faults), 200, doing: "switching the fault on")
        let answer: Exchange
        do {
            answer = try await request()
        } catch {
            _ = try? await context.http.send("DELETE", "/_admin/faults")
            throw error
        }
        _ = try? await context.http.send("DELETE", "/_admin/faults")
        return answer
    }

    /// A request that must get no answer: kept when the connection closes unanswered.
    static func expectNoAnswer(
        _ context: CheckContext, _ faults: [String: Any], _ what: String,
        _ request: @escaping () async throws -> Exchange
    ) async throws {
        do {
            let answer = try await withFaults(context, faults, request)
            throw CheckStop.broken(expected: "\(what): no answer", got: answer.summary, evidence: [answer])
        } catch CheckStop.cannotTell(let why) where why.contains("got no answer") {
            return
        }
    }

    /// How long the `fault.timeout` check waits for the answer that must not come, in real time: the fault holds
    /// a request until its client gives up, so the client's patience is the whole cost of the check.
    static let timeoutFaultWait: Double = 3

    static let connectionFaults: [Check] = [
        Check(
            .faultTimeout, "An endpoint fault of kind timeout holds that path's request until the client gives up",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            let wait = Int(timeoutFaultWait)
            let answer: Exchange
            do {
                answer = try await withFaults(context, ["endpoints": [["path": "/health", "kind": "timeout"]]]) {
                    try await context.http.get("/health", timeout: timeoutFaultWait)
                }
            } catch CheckStop.cannotTell(let why) where why.contains("got no answer") {
                if why.contains(ConformHTTP.timedOut) { return }
                // Closed at once is what an offline fault does: a timeout holds the request open.
                throw CheckStop.broken(
                    expected: "GET /health under the fault: held unanswered until the client gave up after \(wait) s",
                    got: "the connection closed before (\(why))", evidence: [])
            }
            throw CheckStop.broken(
                expected: "GET /health under the fault: no answer within \(wait) s", got: answer.summary,
                evidence: [answer])
        },
        Check(
            .faultOffline503, "offline 503 answers every request 503 offline",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            let answer = try await withFaults(context, ["offline": "503"]) { try await context.http.get("/health") }
            try context.require(
                answer.status == 503 && answer.errorCode == "offline", expected: "GET /health offline: 503 offline",
                got: answer.summary, answer)
        },
        Check(
            .faultOfflineDrop, "offline drop closes every connection unanswered",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            try await expectNoAnswer(context, ["offline": "drop"], "GET /health offline") {
                try await context.http.get("/health")
            }
        },
        Check(
            .faultOffline, "An endpoint fault of kind offline closes that path's connection unanswered",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            try await expectNoAnswer(
                context, ["endpoints": [["path": "/health", "kind": "offline"]]], "GET /health under the fault"
            ) { try await context.http.get("/health") }
        },
        Check(
            .faultCommitThenFail, "commit_then_fail sends the code but closes the connection unanswered",
            needs: .init(messages: true, referenceOnly: referenceAPI)
        ) { context in
            let phone = context.freshPhone()
            try await expectNoAnswer(
                context, ["endpoints": [["path": "/auth/sign-in/code", "kind": "commit_then_fail"]]],
                "a sign-in code under the fault"
            ) { try await context.startSignIn(.phone, phone) }
            // The write was committed: the code went out although nobody was answered.
            do {
                _ = try await context.messages.latest(.code, to: phone)
            } catch CheckStop.cannotTell(let why) {
                throw CheckStop.broken(
                    expected: "the code sent though the answer was lost", got: why, evidence: [])
            }
        },
    ]
}

/// The caps across destinations: each costs a whole cap of real sends and an hour's wait, so against another
/// backend they run only with `--wait-long`, and they leave the address or account capped for an hour.
extension Catalogue {
    static let hourlyCaps: [Check] = [
        Check(
            .rateLimitClientAddressHourly,
            "30 sends asked from one client address in an hour go; the 31st is refused until the hour passes",
            needs: .init(time: SendLimits.capWindow)
        ) { context in
            for _ in 1...SendLimits.maxSendsPerClientAddress {
                try await context.setup(
                    context.startSignIn(.phone, context.freshPhone()), 202, doing: "a sign-in code within the cap")
            }
            let refused = try await context.expect(
                context.startSignIn(.phone, context.freshPhone()), 429, "rate_limited",
                "send \(SendLimits.maxSendsPerClientAddress + 1) from this address within the hour")
            let limit = refused.errorMember?["limit"] as? String
            try context.require(
                limit == "client_address_hourly", expected: "limit: client_address_hourly",
                got: "limit: \(limit ?? "absent")", refused)
            try await context.pass(SendLimits.capWindow)
            try await context.expect(
                context.startSignIn(.phone, context.freshPhone()), 202, nil, "a send once the hour passed",
                evidence: [refused])
        },
        Check(
            .rateLimitAccountHourly, "10 sends asked by one account in an hour go; the 11th is refused",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            // The grant's link is the account's first send of the hour.
            let grant = try await context.grant(account)
            for _ in 2...SendLimits.maxSendsPerAccount {
                try await context.setup(
                    requestOTP(context, account, context.freshPhone(), "add_phone", reauth: grant), 202,
                    doing: "a code to a new number within the cap")
            }
            let refused = try await context.expect(
                requestOTP(context, account, context.freshPhone(), "add_phone", reauth: grant), 429, "rate_limited",
                "send \(SendLimits.maxSendsPerAccount + 1) asked by this account within the hour")
            let limit = refused.errorMember?["limit"] as? String
            try context.require(
                limit == "account_hourly", expected: "limit: account_hourly", got: "limit: \(limit ?? "absent")",
                refused)
        },
        Check(.rateLimitGlobalHourly, "300 sends an hour for the whole server") { _ in
            throw CheckStop.skipped(
                "one client address meets its own cap of \(SendLimits.maxSendsPerClientAddress) long before "
                    + "\(SendLimits.maxSendsPerHour); reaching it needs many client addresses")
        },
    ]
}
