import AccessCore
import Foundation

/// A request an operation takes as the contract describes it, aimed at nothing that matters (an address nobody
/// has, a session id nobody issued): what the guards in front of many operations (a live session, its second
/// factor, its full access, Verify it's you, the admin token) are checked with on each, so a refusal can only be
/// the guard's.
struct Probe: Sendable {
    let method: String
    let path: String
    let body: Data?

    init(_ method: String, _ path: String, _ body: [String: Any]? = nil) {
        self.method = method
        self.path = path
        self.body = body.map(ConformHTTP.encode)
    }

    static func of(_ operation: ContractOperation, _ context: CheckContext) -> Probe {
        let (method, path) = operation.route
        let password = Catalogue.freshPassword()
        switch operation {
        case .disconnectProvider: return Probe(method, path, ["provider": "google"])
        case .connectProvider, .reauthSocial:
            return Probe(method, path, ["provider": "google", "id_token": "conform-not-a-token"])
        case .signOutSession: return Probe(method, "/me/sessions/\(Catalogue.probeSessionID)")
        case .verifyTwoFactor, .confirmTwoFactorSetup, .reauthAuthenticator:
            return Probe(method, path, ["code": "000000"])
        case .useRecoveryCode: return Probe(method, path, ["recovery_code": "aaaaa-aaaaa"])
        case .updateProfile: return Probe(method, path, ["username": Catalogue.freshUsername()])
        case .usernameAvailable: return Probe(method, path + "?username=" + Catalogue.freshUsername())
        case .setRecoveryEmail, .addEmailWithPassword:
            return Probe(method, path, ["email": context.freshEmail(), "password": password])
        case .continueOnboarding: return Probe(method, path, ["from": "recovery_email"])
        case .requestOtp: return Probe(method, path, ["phone": context.freshPhone(), "purpose": "add_phone"])
        case .resendOtp, .cancelOtp: return Probe(method, path, ["request_id": "otp_conform_probe"])
        case .verifyOtp: return Probe(method, path, ["request_id": "otp_conform_probe", "code": "000000"])
        case .reauthPassword: return Probe(method, path, ["password": password])
        case .reauthEmailConfirm: return Probe(method, path, ["token": "conform-no-such-link"])
        case .emailAvailable: return Probe(method, path + "?email=" + context.freshEmail())
        case .requestEmailChange: return Probe(method, path, ["email": context.freshEmail()])
        case .changePassword: return Probe(method, path, ["new_password": password])
        case .adminLoadScenario: return Probe(method, path, ["name": "conform-no-such-scenario"])
        case .adminCreateWorld: return Probe(method, path, ["name": "Conform Probe!"])
        case .adminDeleteWorld, .adminDownloadWorld:
            return Probe(method, path.replacingOccurrences(of: "{name}", with: "conform-probe"))
        case .adminSignInDevice: return Probe(method, path, ["device": Device.body])
        case .adminSetClock: return Probe(method, path, [:])
        case .adminAdvanceClock: return Probe(method, path, ["seconds": 0])
        case .adminSetFaults: return Probe(method, path, ["offline": "conform"])
        case .adminProviderToken, .adminProviderAccounts:
            return Probe(method, path.replacingOccurrences(of: "{provider}", with: "google"), [:])
        case .adminJournal: return Probe(method, path + "?limit=1")
        case .registerPasskey:
            return Probe(
                method, path,
                ["challenge_id": "pkc_conform_probe", "client_data_json": "AA", "attestation_object": "AA"])
        case .renamePasskey:
            return Probe(method, path.replacingOccurrences(of: "{id}", with: Catalogue.probePasskeyID), ["name": "x"])
        case .removePasskey, .adminRemovePasskey:
            return Probe(method, path.replacingOccurrences(of: "{id}", with: Catalogue.probePasskeyID))
        case .reauthPasskey:
            return Probe(
                method, path,
                [
                    "challenge_id": "pkc_conform_probe", "credential_id": Catalogue.probePasskeyID,
                    "client_data_json": "AA", "authenticator_data": "AA", "signature": "AA",
                ])
        default: return Probe(method, path, method == "GET" || method == "DELETE" ? nil : [:])
        }
    }

    func send(
        _ context: CheckContext, token: String? = nil, reauth: String? = nil, headers: [(String, String)] = []
    ) async throws -> Exchange {
        try await context.http.send(method, path, body: body, token: token, reauth: reauth, headers: headers)
    }
}

/// The guards: a live session, its second factor, its full access, Verify it's you, each on every operation it
/// stands in front of.
extension Catalogue {
    static let guards: [Check] = [
        Check(
            .sessionInvalid, "Without an access token, or with one nobody issued, the operation answers 401"
        ) { context, operation in
            let probe = Probe.of(operation, context)
            let without = try await context.expect(
                await probe.send(context), 401, "unauthorized", "\(operation.name) without an access token")
            try await context.expect(
                await probe.send(context, token: "conform-not-a-token"), 401, "unauthorized",
                "\(operation.name) with an access token nobody issued", evidence: [without])
            if operation == .getMe {
                // "past its access token's hour": the road that reads nothing else waits it out.
                let account = try await context.newAccount()
                try await context.pass(SessionRules.accessLifetime - 1)
                let live = try await context.expect(
                    await context.http.get("/auth/me", token: account.access), 200, nil,
                    "an access token 1 s before its \(time(SessionRules.accessLifetime))")
                try await context.pass(1)
                try await context.expect(
                    await context.http.get("/auth/me", token: account.access), 401, "unauthorized",
                    "the same access token at its hour", evidence: [live])
            }
        },
        Check(
            .sessionRevoked, "A session signed out from another device is refused everything with session_revoked",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let signedOut = try await context.once("signed-out session") { try await signedOutSession(context) }
            let answer =
                operation == .refreshSession
                ? try await context.refresh(signedOut.refresh)
                : try await Probe.of(operation, context).send(context, token: signedOut.access)
            try await context.expect(
                answer, 401, "session_revoked", "\(operation.name) from the session signed out from another device")
        },
        Check(
            .twoFactorRequired, "A session of one factor is refused everything but the second step and logging out",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let account = try await context.once("two-factor account") { try await context.twoFactorAccount() }
            try await context.expect(
                await Probe.of(operation, context).send(context, token: account.other.access), 403,
                "second_factor_required", "\(operation.name) from a session that passed one factor")
        },
        Check(
            .recoveryLimitedAccess, "A session recovered by email may read but not change, until a phone is proved",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let limited = try await context.once("limited session") { try await limitedSession(context) }
            var probe = Probe.of(operation, context)
            if [.resendOtp, .cancelOtp, .verifyOtp].contains(operation) {
                // The account's own code request, made by a session with full access: only the access differs.
                let body: [String: Any] = ["request_id": limited.requestID, "code": "000000"]
                probe = Probe(
                    probe.method, probe.path, operation == .verifyOtp ? body : ["request_id": limited.requestID])
            }
            let refused = try await context.expect(
                await probe.send(context, token: limited.access), 403, "limited_access",
                "\(operation.name) from a session with limited access")
            if operation == .requestOtp {
                // The way back: the limited session re-verifies a phone.
                try await context.expect(
                    await context.http.post(
                        "/auth/phone/request-otp", ["phone": context.freshPhone(), "purpose": "reverify_phone"],
                        token: limited.access), 202, nil, "a reverify_phone code from the limited session",
                    evidence: [refused])
            }
        },
        Check(
            .reauthRequired, "A change that needs Verify it's you is refused without a live grant of this user",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown)
        ) { context, operation in
            let change = try await ReauthRoad.open(operation, context)
            let without = try await context.expect(
                await change.send(nil), 403, "reauth_required", "\(operation.name) without a re-auth token")
            guard operation == .requestOtp else { return }
            // Another account's live grant is no grant of this user.
            let other = try await context.newAccount(.email)
            let foreign = try await context.grant(other)
            try await context.expect(
                await change.send(foreign), 403, "reauth_required", "\(operation.name) with another account's grant",
                evidence: [without])
            // An account with nothing to verify with but the phone it changes: its session stands in.
            let phoneOnly = try await context.newAccount()
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                await requestOTP(context, phoneOnly, context.freshPhone(), "change_phone"), 202, nil,
                "a phone-only account changing its phone without a re-auth token")
        },
        Check(
            .adminUnauthorized, "With --admin-token, an admin request with another token answers 401",
            needs: .init(referenceOnly: referenceAPI)
        ) { context, operation in
            guard context.http.adminToken != nil else {
                throw CheckStop.skipped(
                    "the run has no --admin-token: the rule is for a reference backend started with one")
            }
            var probe = Probe.of(operation, context)
            if operation == .adminSignOutSession {
                // A live sign-in's id: an unknown one answers 404 not_found, which a missing route answers too.
                let account = try await context.newAccount()
                let list = try await context.setup(
                    await context.http.get("/me/sessions", token: account.access), 200, doing: "listing its sessions")
                guard let id = (list.object?["sessions"] as? [[String: Any]])?.first?["id"] as? String else {
                    throw CheckStop.cannotTell("the session list has no session id")
                }
                probe = Probe(probe.method, probe.path.replacingOccurrences(of: "{id}", with: id))
            }
            let wrong = try await context.expect(
                await probe.send(context, headers: [("X-Admin-Token", "conform-not-the-token")]), 401,
                "admin_token_required", "\(operation.name) with a wrong X-Admin-Token")
            try await context.expect(
                await probe.send(context, headers: [("X-Admin-Token", "")]), 401, "admin_token_required",
                "\(operation.name) with an empty X-Admin-Token", evidence: [wrong])
        },
    ]

    /// An account's second sign-in, signed out from its first (`POST /me/sessions/revoke-others`).
    static func signedOutSession(_ context: CheckContext) async throws -> Account {
        let (this, other) = try await twoSignIns(context)
        let grant = try await context.grant(this)
        try await context.setup(
            await context.http.send("POST", "/me/sessions/revoke-others", token: this.access, reauth: grant), 200,
            doing: "signing out the other devices")
        return other
    }

    /// A session recovered by email (limited access), and a code request of its account made with full access.
    struct Limited: Sendable {
        var access: String
        var requestID: String
    }

    static func limitedSession(_ context: CheckContext) async throws -> Limited {
        let (email, password, link) = try await recoveryLink(context)
        let full = try await signedIn(context, email, password)
        let grant = try await context.grant(full)
        let asked = try await context.setup(
            await requestOTP(context, full, context.freshPhone(), "add_phone", reauth: grant), 202,
            doing: "asking for a code with full access")
        guard let requestID = asked.object?["request_id"] as? String else {
            throw CheckStop.cannotTell("the code answer has no request_id")
        }
        let completed = try await context.setup(
            await completeRecovery(context, link, password), 200, doing: "recovering with the link")
        adoptSession(context, completed, email)
        guard let access = (completed.object?["session"] as? [String: Any])?["access_token"] as? String else {
            throw CheckStop.cannotTell("the recovery answer has no session")
        }
        return Limited(access: access, requestID: requestID)
    }
}
