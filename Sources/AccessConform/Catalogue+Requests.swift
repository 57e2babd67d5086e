import AccessCore
import Foundation

/// Sessions signed out from elsewhere, usernames and profiles, the rest of the request rules, and the reference
/// backend's own admin and fault API.
extension Catalogue {
    static let round2: [Check] =
        passwords + changes + recoveryAndOnboarding + round3 + signedOutSessions + usernames + requestRules + adminRules
        + faultRules + unprovokable + adminSessions

    // MARK: session

    /// A fresh email account signed in twice: the first is "this device", the second the other one.
    static func twoSignIns(_ context: CheckContext) async throws -> (this: Account, other: Account) {
        let this = try await context.newAccount(.email)
        try await context.pass(SendLimits.cooldown)
        let other = try await context.signIn(.email, this.destination)
        return (this, other)
    }

    static let signedOutSessions: [Check] = [
        Check(
            .sessionSignedOutOthers, "Signing out every other device leaves only this one",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            let (this, other) = try await twoSignIns(context)
            let grant = try await context.grant(this)
            let done = try await context.expect(
                await context.http.send("POST", "/me/sessions/revoke-others", token: this.access, reauth: grant), 200,
                nil,
                "signing out the other devices")
            try await context.expect(
                await context.http.get("/auth/me", token: other.access), 401, "session_revoked",
                "the other device's access token afterwards", evidence: [done])
            // Signed out, refresh token included.
            try await context.expect(
                await context.refresh(other.refresh), 401, nil, "the other device's refresh token afterwards",
                evidence: [done])
            try await context.expect(
                await context.http.get("/auth/me", token: this.access), 200, nil,
                "this device's own access token afterwards",
                evidence: [done])
        },
        Check(
            .sessionNotFound, "Signing out a session id the account does not have answers 404",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context in
            let account = try await context.newAccount(.email)
            let grant = try await context.grant(account)
            // The list proves the endpoint family is there, so a 404 below is the backend's answer.
            let list = try await context.setup(
                await context.http.get("/me/sessions", token: account.access), 200, doing: "listing the sessions")
            try await context.expect(
                await context.http.send(
                    "DELETE", "/me/sessions/\(probeSessionID)", token: account.access, reauth: grant),
                404, "not_found", "signing out a session id nobody has", evidence: [list], present: true)
        },
    ]

    // MARK: username and profile

    static func freshUsername() -> String {
        "conform_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
    }

    static func availability(_ context: CheckContext, _ account: Account, _ name: String) async throws -> Exchange {
        try await context.http.get("/auth/username-available?username=\(name)", token: account.access)
    }

    static let usernames: [Check] = [
        Check(.usernameAvailable, "A name nobody has is available", needs: .init(messages: true)) { context in
            let account = try await context.account()
            let answer = try await context.expect(
                await availability(context, account, freshUsername()), 200, nil, "a name nobody has")
            try context.require(
                answer.object?["available"] as? Bool == true, expected: "available: true",
                got: "available: \(answer.object?["available"].map { "\($0)" } ?? "absent")", answer)
        },
        Check(
            .profileSaved, "Saving a username and photo keeps both, and a new account moves past the profile step",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            let before = try await context.setup(
                await context.http.get("/me/profile", token: account.access), 200, doing: "reading the new profile")
            guard before.object?["onboarding_step"] as? String == "profile" else {
                throw CheckStop.cannotTell("a new account did not start at the profile step")
            }
            let name = freshUsername()
            let photo = "https://example.com/\(name).png"
            let saved = try await context.expect(
                await context.http.send(
                    "PUT", "/me/profile", body: ConformHTTP.encode(["username": name, "photo": photo]),
                    token: account.access), 200, nil, "saving a username and photo")
            // The state after, not the answer: a later read shows the step left and what was saved.
            let profile = try await context.expect(
                await context.http.get("/me/profile", token: account.access), 200, nil, "reading the profile back",
                evidence: [saved])
            let step = profile.object?["onboarding_step"] as? String
            try context.require(
                step != nil && step != "profile", expected: "onboarding_step: past profile once a username is saved",
                got: "onboarding_step: \(step ?? "absent")", profile)
            let stored = (profile.object?["username"] as? String, profile.object?["photo"] as? String)
            try context.require(
                stored.0 == name && stored.1 == photo, expected: "username and photo: the saved ones",
                got: "username: \(stored.0 ?? "absent"), photo: \(stored.1 ?? "absent")", profile)
        },
        Check(
            .profilePhotoInvalid, "A photo over \(RequestBounds.maxPhotoLength) characters answers 422 invalid_field",
            needs: .init(messages: true)
        ) { context in
            let account = try await context.newAccount()
            let body = [
                "username": freshUsername(), "photo": String(repeating: "p", count: RequestBounds.maxPhotoLength + 1),
            ]
            try await context.expect(
                await context.http.send("PUT", "/me/profile", body: ConformHTTP.encode(body), token: account.access),
                422,
                "invalid_field", "a photo of \(RequestBounds.maxPhotoLength + 1) characters")
        },
    ]

    // MARK: http

    static let requestRules: [Check] = [
        Check(.httpPathNotCanonical, "A path with an empty or encoded segment answers 400") { context in
            try await context.expect(
                await context.http.get("/auth//me"), 400, "bad_request", "GET /auth//me (an empty segment)")
            try await context.expect(
                await context.http.get("/auth/m%65"), 400, "bad_request", "GET /auth/m%65 (percent-encoding)")
        },
        Check(.httpHostNotAllowed, "A loopback server answers a foreign Host with 403") { context in
            guard context.http.isLoopback else {
                throw CheckStop.skipped("the rule is for a server on a loopback address; this one is not")
            }
            try await context.expect(
                await context.http.send("GET", "/health", headers: [("Host", "conform.example")]), 403,
                "host_not_allowed", "GET /health with Host: conform.example")
        },
        Check(.httpHostMissing, "A request with two Host headers answers 400") { context in
            let authority = URLComponents(string: context.http.baseURL).map { components in
                (components.host ?? "localhost") + (components.port.map { ":\($0)" } ?? "")
            }
            guard let authority else { throw CheckStop.cannotTell("the backend URL has no host") }
            try await context.expect(
                await context.http.send("GET", "/health", headers: [("Host", authority), ("Host", authority)]), 400,
                "bad_request", "GET /health with the Host header twice")
        },
        Check(.httpOriginNotAllowed, "A POST carrying a browser Origin answers 403") { context in
            try await context.expect(
                await context.http.send(
                    "POST", "/auth/sign-in/code", body: Data("{}".utf8),
                    headers: [("Origin", "https://conform.example")]),
                403, "origin_not_allowed", "a sign-in with Origin: https://conform.example")
        },
        Check(.httpMethodNotAllowed, "A known path asked with another method answers 405 with Allow") { context in
            try await context.expect(
                await context.http.send("PUT", "/auth/sign-in/code", body: Data("{}".utf8)), 405, "method_not_allowed",
                "PUT on the sign-in endpoint")
        },
        Check(.httpInvalidField, "A phone sign-in without a phone answers 422 invalid_field") { context in
            try await context.expect(
                await context.http.post("/auth/sign-in/code", ["channel": "phone", "device": Device.body]), 422,
                "invalid_field", "a phone sign-in with no phone")
        },
        Check(.httpInvalidParameter, "An empty username to look up answers 422 invalid_parameter") { context in
            let account = try await context.account()
            try await context.expect(
                await availability(context, account, ""), 422, "invalid_parameter",
                "GET /auth/username-available?username=")
        },
    ]

    // MARK: admin and faults: the reference backend's own API

    static let referenceAPI = "the reference backend's own API (/_admin), which another backend does not have"

    static let adminRules: [Check] = [
        Check(
            .adminInvalidParameter,
            "A journal limit over \(RequestBounds.journalCapacity) answers 422, a filter that does not read 400; "
                + "both invalid_parameter",
            needs: .init(referenceOnly: referenceAPI),
            eachRoad: { context, operation in
                if operation == .adminJournal {
                    try await context.expect(
                        await context.http.get("/_admin/journal?limit=\(RequestBounds.journalCapacity + 1)"), 422,
                        "invalid_parameter",
                        "the journal's ?limit=\(RequestBounds.journalCapacity + 1)")
                } else {
                    try await context.expect(
                        await context.http.get("/_admin/journal/count?status=abc"), 400, "invalid_parameter",
                        "the journal count's ?status=abc")
                }
            }),
        Check(
            .adminSignedOutScenario, "A session for a scenario that starts signed out answers 409",
            needs: .init(scenario: "new-user", referenceOnly: referenceAPI)
        ) { context in
            try await context.expect(
                await context.http.post("/_admin/session", ["device": Device.body]), 409, "signed_out_scenario",
                "POST /_admin/session on new-user")
        },
        Check(
            .invalidFault, "A fault setting out of its bounds answers 422 invalid_fault",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            try await context.expect(
                await context.http.post("/_admin/faults", ["offline": "conform"]), 422, "invalid_fault",
                "offline: conform")
        },
    ]

    /// Switches an endpoint fault on for one request, and off again whatever happens.
    static func withFault(
        _ context: CheckContext, _ fault: [String: Any], _ request: () async throws -> Exchange
    ) async throws -> Exchange {
        try await withFaults(context, ["endpoints": [fault]], request)
    }

    static let faultRules: [Check] = [
        Check(
            .faultStatus, "An endpoint fault of kind status answers that status with fault_injected",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            let answer = try await withFault(context, ["path": "/health", "kind": "status", "status": 418]) {
                try await context.http.get("/health")
            }
            try await context.expect(answer, 418, "fault_injected", "GET /health under a 418 fault")
        },
        Check(
            .faultUnavailable, "An endpoint fault of kind unavailable answers 503 offline",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            let answer = try await withFault(context, ["path": "/health", "kind": "unavailable"]) {
                try await context.http.get("/health")
            }
            try context.require(
                answer.status == 503 && answer.errorCode == "offline", expected: "503 offline", got: answer.summary,
                answer)
        },
        Check(
            .faultBody, "An endpoint fault of kind body answers the given JSON without running the request",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            let answer = try await withFault(
                context, ["path": "/health", "kind": "body", "body": #"{"conform":true}"#, "body_status": 201]
            ) { try await context.http.get("/health") }
            try await context.expect(answer, 201, nil, "GET /health under a body fault")
            try context.require(
                answer.object?["conform"] as? Bool == true, expected: #"the body {"conform":true}"#,
                got: "another body", answer)
        },
        Check(
            .faultMalformed, "An endpoint fault of kind malformed answers a body the contract does not describe",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            let page = try await withFault(context, ["path": "/health", "kind": "malformed", "malformed": "html"]) {
                try await context.http.get("/health")
            }
            // A 502 is what the fault answers, so it is the check's evidence, not a server error that hides it.
            try context.require(
                page.status == 502 && page.object == nil
                    && page.headers["content-type"]?.hasPrefix("text/html") == true,
                expected: "GET /health under a malformed html fault: 502 with an HTML page, not JSON",
                got: "\(page.status) \(page.headers["content-type"] ?? "without Content-Type")", page)
            let cut = try await withFault(context, ["path": "/health", "kind": "malformed", "malformed": "cut"]) {
                try await context.http.get("/health")
            }
            try await context.expect(cut, 200, nil, "GET /health under a malformed cut fault")
            try context.require(
                (try? JSONSerialization.jsonObject(with: cut.body)) == nil, expected: "JSON cut short",
                got: "a body that parses", cut)
        },
        Check(
            .faultReset, "An endpoint fault of kind reset drops the connection halfway through the answer",
            needs: .init(referenceOnly: referenceAPI)
        ) { context in
            try await expectNoAnswer(context, ["endpoints": [["path": "/health", "kind": "reset"]]], "GET /health") {
                try await context.http.get("/health")
            }
        },
    ]

    // MARK: rules no request can honestly provoke

    static let unprovokable: [Check] = [
        Check(.httpInternal, "A server error cannot be provoked on purpose") { _ in
            throw CheckStop.skipped("a 500 comes only from a defect; no request provokes one on purpose")
        },
        Check(.httpMethod, "The framework's own 405 is answered only when the gateway's is not") { _ in
            throw CheckStop.skipped(
                "the gateway answers every known path's other methods first (http.method_not_allowed)")
        },
    ]
}

/// `POST /_admin/session`, the QA shortcut into the loaded scenario's user, when there is nobody to sign in as.
extension Catalogue {
    static let adminSessions: [Check] = [
        Check(
            .adminScenarioInvalid, "A scenario file that does not read makes the list answer 500 scenario_invalid",
            needs: .init(referenceOnly: referenceAPI)
        ) { _ in
            throw CheckStop.skipped("needs a broken scenario file on the server's disk, which no request can write")
        },
        Check(
            .adminOutboxInvalid, "An outbox message the contract cannot describe makes the outbox answer 500",
            needs: .init(referenceOnly: referenceAPI)
        ) { _ in
            throw CheckStop.skipped(
                "needs a message in the outbox whose channel, kind or purpose the contract cannot describe: the "
                    + "server sends none, and no request writes one")
        },
    ]
}

extension ConformHTTP {
    /// The backend's address is a loopback one (where `http.host_not_allowed` applies).
    var isLoopback: Bool {
        guard let host = URLComponents(string: baseURL)?.host else { return false }
        return host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }
}
