import AccessCore
import Foundation

/// Passkeys (issue 53), checked with AccessCore's `SoftwareAuthenticator` answering the backend's ceremonies as a
/// phone's platform authenticator would. The origin a client answers with is the options' `rp_id` over https
/// (docs/reference-backend.md, Passkeys).
extension Catalogue {
    /// One ceremony's options as the backend answered them.
    struct PasskeyOptions: Sendable {
        var id: String
        var challenge: [UInt8]
        var rpID: String
        var userHandle: [UInt8]
        var userName: String
        var origin: String { PasskeyRelyingParty.origin(of: rpID) }

        init(_ answer: Exchange) throws {
            guard let object = answer.object, let id = object["challenge_id"] as? String,
                let challenge = (object["challenge"] as? String).flatMap(Base64URL.decode),
                let rpID = object["rp_id"] as? String
            else { throw CheckStop.cannotTell("the passkey options have no challenge_id, challenge or rp_id") }
            self.id = id
            self.challenge = challenge
            self.rpID = rpID
            userHandle = (object["user_handle"] as? String).flatMap(Base64URL.decode) ?? []
            userName = object["user_name"] as? String ?? ""
        }
    }

    static func registrationOptions(_ context: CheckContext, _ account: Account) async throws -> PasskeyOptions {
        try PasskeyOptions(
            await context.setup(
                await context.http.post("/me/passkeys/registration/options", [:], token: account.access), 200,
                doing: "asking for the registration options"))
    }

    /// The authenticator's new credential for `options`, and the answer of `POST /me/passkeys` with it.
    static func register(
        _ context: CheckContext, _ account: Account, _ options: PasskeyOptions, origin: String? = nil
    ) async throws -> (passkey: DevicePasskey, answer: Exchange) {
        let created = SoftwareAuthenticator.create(
            rpID: options.rpID, origin: origin ?? options.origin, challenge: options.challenge,
            userHandle: options.userHandle, userName: options.userName)
        let answer = try await context.http.post(
            "/me/passkeys",
            [
                "challenge_id": options.id, "client_data_json": Base64URL.encode(created.clientDataJSON),
                "attestation_object": Base64URL.encode(created.attestationObject), "name": "conform",
            ], token: account.access)
        return (created.passkey, answer)
    }

    /// A new account (by phone) with one passkey registered.
    static func passkeyAccount(_ context: CheckContext) async throws -> (account: Account, passkey: DevicePasskey) {
        let account = try await context.newAccount()
        let (passkey, answer) = try await register(context, account, try await registrationOptions(context, account))
        try await context.setup(answer, 201, doing: "registering a passkey")
        return (account, passkey)
    }

    static func signInOptions(_ context: CheckContext) async throws -> PasskeyOptions {
        try PasskeyOptions(
            await context.setup(
                await context.http.post("/auth/passkey/options", [:]), 200, doing: "asking for the sign-in options"))
    }

    static func reauthOptions(_ context: CheckContext, _ account: Account) async throws -> PasskeyOptions {
        try PasskeyOptions(
            await context.setup(
                await context.http.post("/auth/reauth/passkey/options", [:], token: account.access), 200,
                doing: "asking for the re-auth options"))
    }

    /// The passkey's signed answer to `options`, as the body of a sign-in (with a device) or a re-auth.
    static func assertion(
        _ passkey: inout DevicePasskey, _ options: PasskeyOptions, origin: String? = nil,
        device: [String: Any]? = nil
    ) -> [String: Any] {
        let answer = SoftwareAuthenticator.answer(
            &passkey, origin: origin ?? options.origin, challenge: options.challenge)
        var body: [String: Any] = [
            "challenge_id": options.id, "credential_id": Base64URL.encode(answer.credentialID),
            "client_data_json": Base64URL.encode(answer.clientDataJSON),
            "authenticator_data": Base64URL.encode(answer.authenticatorData),
            "signature": Base64URL.encode(answer.signature), "user_handle": Base64URL.encode(answer.userHandle),
        ]
        if let device { body["device"] = device }
        return body
    }

    /// Signs in with the passkey's answer to fresh sign-in options.
    static func passkeySignIn(
        _ context: CheckContext, _ passkey: inout DevicePasskey, origin: String? = nil,
        device: [String: Any] = Device.body
    ) async throws -> Exchange {
        let options = try await signInOptions(context)
        return try await context.http.post(
            "/auth/passkey/verify", assertion(&passkey, options, origin: origin, device: device))
    }

    /// Verify it's you with the passkey's answer to fresh re-auth options.
    static func passkeyReauth(
        _ context: CheckContext, _ account: Account, _ passkey: inout DevicePasskey, origin: String? = nil
    ) async throws -> Exchange {
        let options = try await reauthOptions(context, account)
        return try await context.http.post(
            "/auth/reauth/passkey", assertion(&passkey, options, origin: origin), token: account.access)
    }

    /// The sign-in or the re-auth `operation` names, with the passkey.
    static func passkeyWayIn(
        _ operation: ContractOperation, _ context: CheckContext, _ account: Account, _ passkey: inout DevicePasskey,
        origin: String? = nil
    ) async throws -> Exchange {
        operation == .reauthPasskey
            ? try await passkeyReauth(context, account, &passkey, origin: origin)
            : try await passkeySignIn(context, &passkey, origin: origin)
    }

    /// The account's passkeys as `GET /me/passkeys` lists them, by id.
    static func listedPasskeys(
        _ context: CheckContext, _ account: Account, evidence: [Exchange] = []
    ) async throws -> (passkeys: [String: [String: Any]], answer: Exchange) {
        let answer = try await context.expect(
            await context.http.get("/me/passkeys", token: account.access), 200, nil, "the passkeys afterwards",
            evidence: evidence)
        let list = answer.object?["passkeys"] as? [[String: Any]] ?? []
        var byID: [String: [String: Any]] = [:]
        for passkey in list { if let id = passkey["id"] as? String { byID[id] = passkey } }
        return (byID, answer)
    }

    /// A passkey nobody registered: the authenticator made it for a challenge it never sent back.
    static func unregisteredPasskey(rpID: String) -> DevicePasskey {
        SoftwareAuthenticator.create(
            rpID: rpID, origin: PasskeyRelyingParty.origin(of: rpID), challenge: Array(repeating: 1, count: 32),
            userHandle: Array("conform-nobody".utf8), userName: "nobody"
        ).passkey
    }

    static let wrongOrigin = "https://evil.example"
    static let passkeyNeeds = Needs(messages: true, time: SendLimits.cooldown)

    static let passkeys: [Check] = [
        Check(.passkeyRegistered, "A registered passkey is listed with its name", needs: passkeyNeeds) { context in
            let account = try await context.newAccount()
            let (passkey, answer) = try await register(
                context, account, try await registrationOptions(context, account))
            let registered = try await context.expect(answer, 201, nil, "registering a passkey")
            let id = Base64URL.encode(passkey.credentialID)
            let (listed, list) = try await listedPasskeys(context, account, evidence: [registered])
            try context.require(
                listed[id]?["name"] as? String == "conform", expected: "the passkey \(id) named conform",
                got: listed[id].map { "named \($0["name"] ?? "nothing")" } ?? "not listed", list)
        },
        Check(
            .passkeySignedIn, "A passkey signs its account in, and its counter and last use are kept",
            needs: passkeyNeeds
        ) { context in
            var (account, passkey) = try await passkeyAccount(context)
            let signedIn = try await context.expect(
                await passkeySignIn(context, &passkey), 200, nil, "signing in with the passkey")
            guard let access = (signedIn.object?["session"] as? [String: Any])?["access_token"] as? String else {
                throw CheckStop.broken(expected: "a session", got: "none", evidence: [signedIn])
            }
            try await context.expect(
                await context.http.get("/auth/me", token: access), 200, nil, "the passkey's session",
                evidence: [signedIn])
            account.access = access
            let (listed, list) = try await listedPasskeys(context, account, evidence: [signedIn])
            let row = listed[Base64URL.encode(passkey.credentialID)]
            try context.require(
                (row?["sign_count"] as? Int).map(UInt32.init) == passkey.signCount && row?["last_used_at"] != nil,
                expected: "sign_count \(passkey.signCount) and a last_used_at",
                got: "sign_count \(row?["sign_count"] ?? "absent"), last_used_at \(row?["last_used_at"] ?? "absent")",
                list)
        },
        Check(
            .passkeyRefused, "An answer for another origin is refused with 422 passkey_wrong_origin",
            needs: passkeyNeeds
        ) { context, operation in
            let what = "\(operation.name) with client data for \(wrongOrigin)"
            if operation == .registerPasskey {
                let account = try await context.newAccount()
                let options = try await registrationOptions(context, account)
                try await context.expect(
                    await register(context, account, options, origin: wrongOrigin).answer, 422,
                    "passkey_wrong_origin", what)
                return
            }
            var (account, passkey) = try await passkeyAccount(context)
            try await context.expect(
                await passkeyWayIn(operation, context, account, &passkey, origin: wrongOrigin), 422,
                "passkey_wrong_origin", what)
        },
        Check(
            .passkeyChallengeExpired,
            "A challenge works once, for \(time(PasskeyRules.challengeLifetime)), and not a second longer",
            needs: .init(
                messages: true, time: SendLimits.cooldown + PasskeyRules.challengeLifetime,
                longestWait: PasskeyRules.challengeLifetime)
        ) { context, operation in
            var (account, passkey) = try await passkeyAccount(context)
            // Two challenges at once: one answered just before its lifetime ends, one just after.
            func options() async throws -> PasskeyOptions {
                switch operation {
                case .registerPasskey: try await registrationOptions(context, account)
                case .reauthPasskey: try await reauthOptions(context, account)
                default: try await signInOptions(context)
                }
            }
            func answer(_ options: PasskeyOptions, _ passkey: inout DevicePasskey) async throws -> Exchange {
                switch operation {
                case .registerPasskey: return try await register(context, account, options).answer
                case .reauthPasskey:
                    return try await context.http.post(
                        "/auth/reauth/passkey", assertion(&passkey, options), token: account.access)
                default:
                    return try await context.http.post(
                        "/auth/passkey/verify", assertion(&passkey, options, device: Device.body))
                }
            }
            let first = try await options()
            let second = try await options()
            try await context.pass(PasskeyRules.challengeLifetime - 1)
            let ok = operation == .registerPasskey ? 201 : 200
            let live = try await context.expect(
                await answer(first, &passkey), ok, nil,
                "\(operation.name) 1 s before the challenge's \(time(PasskeyRules.challengeLifetime))")
            let replayed = try await context.expect(
                await answer(first, &passkey), 410, "passkey_challenge_expired",
                "\(operation.name) with the same challenge again", evidence: [live])
            try await context.pass(1)
            try await context.expect(
                await answer(second, &passkey), 410, "passkey_challenge_expired",
                "\(operation.name) at the challenge's \(time(PasskeyRules.challengeLifetime))", evidence: [replayed])
        },
        Check(
            .passkeyNotFound, "A credential id that is no passkey of the account answers 404 passkey_not_found",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let (account, _) = try await passkeyAccount(context)
            let what = "\(operation.name) naming a passkey nobody registered"
            switch operation {
            case .passkeySignIn, .reauthPasskey:
                let options = try await signInOptions(context)
                var stranger = unregisteredPasskey(rpID: options.rpID)
                try await context.expect(
                    await passkeyWayIn(operation, context, account, &stranger), 404, "passkey_not_found", what)
            case .renamePasskey:
                try await context.expect(
                    await context.http.send(
                        "PATCH", "/me/passkeys/conform_no_such_passkey", body: ConformHTTP.encode(["name": "x"]),
                        token: account.access), 404, "passkey_not_found", what)
            default:
                let grant = try await context.grant(account)
                try await context.expect(
                    await context.http.send(
                        "DELETE", "/me/passkeys/conform_no_such_passkey", token: account.access, reauth: grant), 404,
                    "passkey_not_found", "\(what), verified")
            }
        },
        Check(
            .passkeyCloned, "A counter that does not grow is refused, and the passkey flagged and refused from then on",
            needs: passkeyNeeds
        ) { context, operation in
            var (account, passkey) = try await passkeyAccount(context)
            if operation == .reauthPasskey {
                // A second passkey keeps the account able to ask for re-auth options once the first is flagged.
                let (_, second) = try await register(context, account, try await registrationOptions(context, account))
                try await context.setup(second, 201, doing: "registering a second passkey")
            }
            var copy = passkey
            let first = try await context.setup(
                await passkeyWayIn(operation, context, account, &passkey), 200, doing: "using the passkey once")
            let cloned = try await context.expect(
                await passkeyWayIn(operation, context, account, &copy), 403, "passkey_counter_went_back",
                "\(operation.name) by a copy answering the same counter", evidence: [first])
            let after = try await context.expect(
                await passkeyWayIn(operation, context, account, &passkey), 403, "passkey_counter_went_back",
                "\(operation.name) by the original afterwards, its counter grown", evidence: [cloned])
            let (listed, list) = try await listedPasskeys(context, account, evidence: [after])
            try context.require(
                listed[Base64URL.encode(passkey.credentialID)]?["flagged_as_cloned"] as? Bool == true,
                expected: "flagged_as_cloned: true", got: "not flagged", list)
        },
        Check(.passkeyRenamed, "A renamed passkey is listed with its new name", needs: passkeyNeeds) { context in
            let (account, passkey) = try await passkeyAccount(context)
            let id = Base64URL.encode(passkey.credentialID)
            let renamed = try await context.expect(
                await context.http.send(
                    "PATCH", "/me/passkeys/\(id)", body: ConformHTTP.encode(["name": "  Work phone "]),
                    token: account.access), 200, nil, "renaming the passkey")
            let (listed, list) = try await listedPasskeys(context, account, evidence: [renamed])
            try context.require(
                listed[id]?["name"] as? String == "Work phone", expected: "named Work phone",
                got: "named \(listed[id]?["name"] ?? "nothing")", list)
        },
        Check(
            .passkeyRemoved, "A removed passkey leaves the list and signs in no more",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context in
            var (account, passkey) = try await passkeyAccount(context)
            let grant = try await context.grant(account)
            let removed = try await context.expect(
                await context.http.send(
                    "DELETE", "/me/passkeys/\(Base64URL.encode(passkey.credentialID))", token: account.access,
                    reauth: grant), 204, nil, "removing the passkey, verified by a code")
            let (listed, list) = try await listedPasskeys(context, account, evidence: [removed])
            try context.require(listed.isEmpty, expected: "no passkey", got: "\(listed.count) listed", list)
            try await context.expect(
                await passkeySignIn(context, &passkey), 404, "passkey_not_found", "signing in with it afterwards",
                evidence: [list])
        },
        Check(
            .passkeyLastMethod,
            "The passkey an account has left after disconnecting Google cannot be removed: 409 last_method",
            needs: providerNeeds
        ) { context in
            let subject = freshSubject()
            let signedUp = try await context.setup(
                await googleSignIn(context, subject: subject), 200, doing: "signing up with Google")
            let account = try session(of: signedUp, subject, .email)
            let (registered, answer) = try await register(
                context, account, try await registrationOptions(context, account))
            try await context.setup(answer, 201, doing: "registering a passkey")
            var passkey = registered
            let verified = try await context.setup(
                await passkeyReauth(context, account, &passkey), 200, doing: "verifying it's you with the passkey")
            guard let grant = verified.object?["reauth_token"] as? String else {
                throw CheckStop.cannotTell("the passkey re-auth gave no reauth_token")
            }
            let disconnected = try await context.setup(
                await context.http.post(
                    "/me/auth-methods/disconnect", ["provider": "google"], token: account.access, reauth: grant),
                200, doing: "disconnecting Google, the passkey left")
            try await context.expect(
                await context.http.send(
                    "DELETE", "/me/passkeys/\(Base64URL.encode(passkey.credentialID))", token: account.access), 409,
                "last_method", "removing the account's only way in", evidence: [disconnected])
        },
    ]
}
