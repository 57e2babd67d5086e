import AccessCore
import Foundation

/// Re-auth and email change links, the email hold, and the reference backend's connection faults.
extension Catalogue {
    static let round3: [Check] = emailLinks + connectionFaults + connections

    // MARK: link and email

    static let emailLinks: [Check] = [
        Check(
            .linkSent, "Asking for a Verify it's you link emails one that opens the window",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            try await context.pass(SendLimits.cooldown)
            let sent = try await context.expect(
                await context.http.send("POST", "/auth/reauth/email", token: account.access), 202, nil,
                "asking for a link")
            let link = try await context.messages.latest(.link, to: account.destination)
            let opened = try await context.expect(
                await context.http.post("/auth/reauth/email/confirm", ["token": link], token: account.access), 200, nil,
                "opening the link", evidence: [sent])
            try context.require(
                opened.object?["reauth_token"] is String, expected: "a reauth_token", got: "none", opened)
        },
        Check(
            .emailLinkResent,
            "A resent email link works and the one before it does not; a link can be resent up to "
                + "\(time(LinkLifetimes.emailChangeResendable)) after it expired",
            needs: .init(
                messages: true,
                time: 2 * SendLimits.cooldown + 2 * (LinkLifetimes.emailChange + LinkLifetimes.emailChangeResendable))
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            let email = context.freshEmail()
            try await context.setup(
                await context.http.post(
                    "/auth/email/add-with-password", ["email": email, "password": freshPassword()],
                    token: account.access, reauth: grant), 202, doing: "adding an email")
            let old = try await context.messages.latest(.link, to: email)
            try await context.pass(SendLimits.cooldown)
            let resent = try await context.expect(
                await context.http.send("POST", "/auth/email/resend", token: account.access), 202, nil,
                "resending the link")
            let new = try await context.messages.latest(.link, to: email)
            guard new != old else { throw CheckStop.cannotTell("the resent link is the same as the first") }
            let stale = try await context.expect(
                await context.http.post("/auth/email/verify", ["token": old]), 410, nil, "the link before the resend",
                evidence: [resent])
            try await context.expect(
                await context.http.post("/auth/email/verify", ["token": new]), 200, nil, "the resent link",
                evidence: [stale])
            // "up to 24 h after its link expired": a resend within that day works, one after it is refused.
            try await context.setup(
                await context.http.post(
                    "/auth/email/request-change", ["email": context.freshEmail()], token: account.access,
                    reauth: grant), 202, doing: "changing the email")
            let session = SendRoad.Session(account)
            try await context.pass(
                LinkLifetimes.emailChange + LinkLifetimes.emailChangeResendable - SendLimits.cooldown)
            try await session.refresh(context)
            let late = try await context.expect(
                await context.http.send("POST", "/auth/email/resend", token: session.account.access), 202, nil,
                "a resend within \(time(LinkLifetimes.emailChangeResendable)) after the link expired")
            try await context.pass(LinkLifetimes.emailChange + LinkLifetimes.emailChangeResendable + 1)
            try await session.refresh(context)
            try await context.expect(
                await context.http.send("POST", "/auth/email/resend", token: session.account.access), 404,
                "link_not_found",
                "a resend more than \(time(LinkLifetimes.emailChangeResendable)) after the last link expired",
                evidence: [late], present: true)
        },
        Check(
            .emailReverted,
            "The old address's link undoes an email change and ends every session, the one the change issued too",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount(.email)
            let new = context.freshEmail()
            try await context.setup(
                await context.http.post("/auth/email/request-change", ["email": new], token: account.access), 202,
                doing: "changing the email")
            let link = try await context.messages.latest(.link, to: new)
            let changed = try await context.setup(
                await context.http.post("/auth/email/verify", ["token": link]), 200, doing: "opening the change's link")
            let revert = try await context.messages.latest(.link, to: account.destination)
            let reverted = try await context.expect(
                await context.http.post("/auth/email/revert", ["token": revert]), 200, nil,
                "the old address's revert link",
                evidence: [changed])
            try await context.expect(
                await context.http.get("/auth/me", token: account.access), 401, nil, "a session from before the revert",
                evidence: [reverted])
            // Whoever changed it is out: the session the change's link issued ends too.
            guard let issued = (changed.object?["session"] as? [String: Any])?["access_token"] as? String else {
                throw CheckStop.cannotTell("the opened link's answer has no session")
            }
            try await context.expect(
                await context.http.get("/auth/me", token: issued), 401, nil,
                "the session the change's link issued, after the revert", evidence: [reverted])
        },
    ]

    // MARK: fault

    /// Sets faults (a `POST /_admin/faults` body) for `request`, and clears them whatever happens.
    static func withFaults(
        _ context: CheckContext, _ faults: [String: Any], _ request: () async throws -> Exchange
    ) async throws -> Exchange {
        try await context.setup(await context.http.post("/_admin/faults", faults), 200, doing: "switching the fault on")
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
