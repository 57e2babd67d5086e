import AccessAPI
import AccessBackendTesting
import AccessCore
import Crypto
import Foundation
import Testing

/// Passkeys (issue 53) over real HTTP: every route and every refusal, driven by AccessCore's SoftwareAuthenticator
/// answering the reference backend's ceremonies (`PasskeyRelyingParty.reference`). The python-fido2 side drives the
/// same routes with Yubico's own classes (`PasskeyFido2Tests`).
@Suite struct PasskeyTests {
    static let device = DeviceInfo(
        deviceName: "Pixel 9", systemName: "Android", systemVersion: "16", identifier: "dev_passkey_1",
        publicKey: Data(repeating: 7, count: 32).base64EncodedString())
    static let origin = PasskeyRelyingParty.origin(of: PasskeyRelyingParty.referenceID)

    // MARK: Helpers

    static func registrationOptions(_ backend: TestBackend, _ token: String) async throws -> PasskeyCreationOptions {
        try await backend.send(.POST, "/me/passkeys/registration/options", raw: Data("{}".utf8), token: token)
            .decode()
    }

    static func created(
        _ options: PasskeyCreationOptions, origin: String = origin,
        attestation: SoftwareAuthenticator.Attestation = .none
    ) throws -> SoftwareAuthenticator.Created {
        SoftwareAuthenticator.create(
            rpID: options.rpId, origin: origin, challenge: try #require(Base64URL.decode(options.challenge)),
            userHandle: try #require(Base64URL.decode(options.userHandle)), userName: options.userName,
            attestation: attestation)
    }

    static func register(
        _ backend: TestBackend, _ token: String, _ made: SoftwareAuthenticator.Created, challengeId: String,
        name: String? = "Pixel", attestationObject: [UInt8]? = nil
    ) async throws -> Reply {
        try await backend.post(
            "/me/passkeys",
            PasskeyRegistrationBody(
                challengeId: challengeId, clientDataJson: Base64URL.encode(made.clientDataJSON),
                attestationObject: Base64URL.encode(attestationObject ?? made.attestationObject), name: name,
                deviceName: "Pixel 9"),
            token: token)
    }

    /// The default scenario's athlete (phone, email, password, Apple, Google), signed in, with one passkey.
    static func withPasskey(
        _ backend: TestBackend, attestation: SoftwareAuthenticator.Attestation = .none
    ) async throws -> (token: String, passkey: DevicePasskey) {
        let token = try await backend.signIn().accessToken
        let options = try await registrationOptions(backend, token)
        let made = try created(options, attestation: attestation)
        let reply = try await register(backend, token, made, challengeId: options.challengeId)
        #expect(reply.status == 201, "\(String(decoding: reply.data, as: UTF8.self))")
        return (token, made.passkey)
    }

    static func signInOptions(_ backend: TestBackend) async throws -> PasskeyRequestOptions {
        try await backend.send(.POST, "/auth/passkey/options", raw: Data("{}".utf8)).decode()
    }

    /// What a sign-in sends: the authenticator's answer, then `alter` to spoil one part of it.
    static func signIn(
        _ backend: TestBackend, _ passkey: inout DevicePasskey, options: PasskeyRequestOptions? = nil,
        origin: String = origin, alter: (inout PasskeySignInBody) async throws -> Void = { _ in }
    ) async throws -> Reply {
        let given = options
        let options = if let given { given } else { try await signInOptions(backend) }
        let answer = SoftwareAuthenticator.answer(
            &passkey, origin: origin, challenge: try #require(Base64URL.decode(options.challenge)))
        var body = PasskeySignInBody(
            challengeId: options.challengeId, credentialId: Base64URL.encode(answer.credentialID),
            clientDataJson: Base64URL.encode(answer.clientDataJSON),
            authenticatorData: Base64URL.encode(answer.authenticatorData),
            signature: Base64URL.encode(answer.signature), userHandle: Base64URL.encode(answer.userHandle),
            device: device)
        try await alter(&body)
        return try await backend.post("/auth/passkey/verify", body)
    }

    static func reauth(_ backend: TestBackend, _ token: String, _ passkey: inout DevicePasskey) async throws -> Reply {
        let options: PasskeyRequestOptions = try await backend.send(
            .POST, "/auth/reauth/passkey/options", raw: Data("{}".utf8), token: token
        ).decode()
        let answer = SoftwareAuthenticator.answer(
            &passkey, origin: origin, challenge: try #require(Base64URL.decode(options.challenge)))
        return try await backend.post(
            "/auth/reauth/passkey",
            PasskeyAssertionBody(
                challengeId: options.challengeId, credentialId: Base64URL.encode(answer.credentialID),
                clientDataJson: Base64URL.encode(answer.clientDataJSON),
                authenticatorData: Base64URL.encode(answer.authenticatorData),
                signature: Base64URL.encode(answer.signature), userHandle: Base64URL.encode(answer.userHandle)),
            token: token)
    }

    static func list(_ backend: TestBackend, _ token: String) async throws -> [Passkey] {
        try await backend.get("/me/passkeys", token: token).decode(PasskeyList.self).passkeys
    }

    static func lastRule(_ backend: TestBackend, _ path: String) async throws -> String? {
        try await backend.get("/_admin/journal").decode([JournalEntry].self).last { $0.path == path }?.rule
    }

    /// Altered authenticator data signed with the passkey's own key, so only the alteration is judged.
    static func resigned(_ data: [UInt8], _ clientData: [UInt8], _ passkey: DevicePasskey) throws -> [UInt8] {
        let file = try JSONEncoder().encode(passkey)
        let raw = try #require(
            (try JSONSerialization.jsonObject(with: file) as? [String: Any])?["privateKey"] as? [Int])
        let key = try P256.Signing.PrivateKey(rawRepresentation: raw.map { UInt8($0) })
        return [UInt8](try key.signature(for: data + Array(SHA256.hash(data: clientData))).derRepresentation)
    }

    // MARK: Registration and the list

    @Test(arguments: [SoftwareAuthenticator.Attestation.none, .packedSelf])
    func aRegisteredPasskeyIsListedAndTheAccountTold(attestation: SoftwareAuthenticator.Attestation) async throws {
        try await TestBackend.with { backend in
            let (token, passkey) = try await Self.withPasskey(backend, attestation: attestation)
            #expect(try await Self.lastRule(backend, "/me/passkeys") == Rule.passkeyRegistered.rawValue)
            let listed = try await Self.list(backend, token)
            #expect(listed.map(\.id) == [Base64URL.encode(passkey.credentialID)])
            #expect(listed.first?.name == "Pixel" && listed.first?.deviceName == "Pixel 9")
            #expect(listed.first?.attestationFormat == (attestation == .none ? "none" : "packed"))
            #expect(listed.first?.lastUsedAt == nil && listed.first?.flaggedAsCloned == false)
            let notices = try await backend.outbox().filter { $0.kind == OutboxKind.passkeyAddedNotice.rawValue }
            #expect(notices.map(\.to) == ["jdoe@mail.com"])
            // The options name it from then on, so the authenticator does not register it twice.
            let again = try await Self.registrationOptions(backend, token)
            #expect(again.excludeCredentials == [Base64URL.encode(passkey.credentialID)])
        }
    }

    @Test func theSameCredentialTwiceIsRefused() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let options = try await Self.registrationOptions(backend, token)
            let made = try Self.created(options)
            #expect(try await Self.register(backend, token, made, challengeId: options.challengeId).status == 201)
            // The same attestation under a new challenge would be the wrong challenge; make it answer the new one.
            let second = try await Self.registrationOptions(backend, token)
            let copy = try Self.created(second)
            var object = try CBORDecoder.decode(copy.attestationObject)
            var data = try AuthenticatorData(bytes: try #require(object[key: "authData"]?.bytesValue))
            data.attestedCredential?.credentialID = made.passkey.credentialID
            object = .map([
                .init(.text("fmt"), .text("none")), .init(.text("attStmt"), .map([])),
                .init(.text("authData"), .bytes(data.encoded)),
            ])
            let reply = try await Self.register(
                backend, token, copy, challengeId: second.challengeId, attestationObject: object.encoded)
            #expect(reply.status == 409 && reply.error?.code == "passkey_exists")
            #expect(try await Self.list(backend, token).count == 1)
        }
    }

    @Test func aRegistrationForAnotherOriginOrWithTrailingBytesIsRefused() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            var options = try await Self.registrationOptions(backend, token)
            let elsewhere = try Self.created(options, origin: "https://evil.example")
            let wrongOrigin = try await Self.register(backend, token, elsewhere, challengeId: options.challengeId)
            #expect(wrongOrigin.status == 422 && wrongOrigin.error?.code == "passkey_wrong_origin")
            #expect(try await Self.lastRule(backend, "/me/passkeys") == Rule.passkeyRefused.rawValue)
            options = try await Self.registrationOptions(backend, token)
            let made = try Self.created(options)
            let trailing = try await Self.register(
                backend, token, made, challengeId: options.challengeId, attestationObject: made.attestationObject + [0])
            #expect(trailing.status == 422 && trailing.error?.code == "passkey_malformed")
            #expect(try await Self.list(backend, token).isEmpty)
            // Each refused answer spent its challenge.
            let again = try await Self.register(backend, token, made, challengeId: options.challengeId)
            #expect(again.status == 410 && again.error?.code == "passkey_challenge_expired")
        }
    }

    @Test func aRegistrationChallengeLivesItsLifetimeAndNoLonger() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let first = try await Self.registrationOptions(backend, token)
            let second = try await Self.registrationOptions(backend, token)
            _ = try await backend.advance(seconds: PasskeyRules.challengeLifetime - 1)
            let live = try await Self.register(backend, token, try Self.created(first), challengeId: first.challengeId)
            #expect(live.status == 201)
            _ = try await backend.advance(seconds: 1)
            let late = try await Self.register(
                backend, token, try Self.created(second), challengeId: second.challengeId)
            #expect(late.status == 410 && late.error?.code == "passkey_challenge_expired")
        }
    }

    @Test func anotherAccountsOrAnotherPurposesChallengeIsRefused() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let signIn = try await Self.signInOptions(backend)
            let made = SoftwareAuthenticator.create(
                rpID: signIn.rpId, origin: Self.origin, challenge: try #require(Base64URL.decode(signIn.challenge)),
                userHandle: Array("usr_athlete".utf8), userName: "ana")
            let reply = try await Self.register(backend, token, made, challengeId: signIn.challengeId)
            #expect(reply.status == 410 && reply.error?.code == "passkey_challenge_expired")
        }
    }

    @Test func renamingKeepsTheNameWithinItsBounds() async throws {
        try await TestBackend.with { backend in
            let (token, passkey) = try await Self.withPasskey(backend)
            let path = "/me/passkeys/\(Base64URL.encode(passkey.credentialID))"
            func rename(_ name: String) async throws -> Reply {
                try await backend.send(
                    .PATCH, path, raw: try APIJSON.makeContractEncoder().encode(PasskeyRenameBody(name: name)),
                    token: token)
            }
            let longest = String(repeating: "n", count: PasskeyRules.maxNameLength)
            let renamed = try await rename(longest)
            #expect(renamed.status == 200)
            #expect(try await Self.list(backend, token).first?.name == longest)
            for bad in [longest + "n", "   "] {
                let refused = try await rename(bad)
                #expect(refused.status == 422 && refused.error?.code == "invalid_field", "\(bad.count)")
            }
            #expect(try await rename("  Work phone ").status == 200)
            #expect(try await Self.list(backend, token).first?.name == "Work phone")
            let unknown = try await backend.send(
                .PATCH, "/me/passkeys/nope", raw: Data(#"{"name":"x"}"#.utf8), token: token)
            #expect(unknown.status == 404 && unknown.error?.code == "passkey_not_found")
        }
    }

    // MARK: Sign-in

    @Test func aPasskeySignsItsAccountInAndKeepsItsCounter() async throws {
        try await TestBackend.with { backend in
            var (token, passkey) = try await Self.withPasskey(backend)
            let reply = try await Self.signIn(backend, &passkey)
            #expect(reply.status == 200)
            let signedIn: SignedIn = try reply.decode()
            #expect(signedIn.authMethods.userId == "usr_athlete" && !signedIn.isNewUser)
            #expect(try await backend.get("/auth/me", token: signedIn.session.accessToken).status == 200)
            #expect(try await Self.lastRule(backend, "/auth/passkey/verify") == Rule.passkeySignedIn.rawValue)
            token = signedIn.session.accessToken
            let listed = try #require(try await Self.list(backend, token).first)
            #expect(listed.signCount == 1 && listed.lastUsedAt != nil)
            let sessions = try await backend.get("/me/sessions", token: token).decode(ActiveSessions.self)
            #expect(sessions.sessions.contains { $0.method == .passkey })
        }
    }

    @Test func aSignInChallengeWorksOnceAndForItsLifetimeOnly() async throws {
        try await TestBackend.with { backend in
            var (_, passkey) = try await Self.withPasskey(backend)
            let first = try await Self.signInOptions(backend)
            let second = try await Self.signInOptions(backend)
            _ = try await backend.advance(seconds: PasskeyRules.challengeLifetime - 1)
            #expect(try await Self.signIn(backend, &passkey, options: first).status == 200)
            let replayed = try await Self.signIn(backend, &passkey, options: first)
            #expect(replayed.status == 410 && replayed.error?.code == "passkey_challenge_expired")
            _ = try await backend.advance(seconds: 1)
            let expired = try await Self.signIn(backend, &passkey, options: second)
            #expect(expired.status == 410 && expired.error?.code == "passkey_challenge_expired")
        }
    }

    @Test func eachSpoiledAnswerIsRefusedWithItsCode() async throws {
        try await TestBackend.with { backend in
            var (_, passkey) = try await Self.withPasskey(backend)
            let wrongOrigin = try await Self.signIn(backend, &passkey, origin: "https://evil.example")
            #expect(wrongOrigin.status == 422 && wrongOrigin.error?.code == "passkey_wrong_origin")
            #expect(try await Self.lastRule(backend, "/auth/passkey/verify") == Rule.passkeyRefused.rawValue)
            let badSignature = try await Self.signIn(backend, &passkey) { body in
                var signature = try #require(Base64URL.decode(body.signature))
                signature[signature.count - 1] ^= 1
                body.signature = Base64URL.encode(signature)
            }
            #expect(badSignature.status == 422 && badSignature.error?.code == "passkey_bad_signature")
            var elsewhere = passkey
            elsewhere.rpID = "evil.example"
            let wrongRP = try await Self.signIn(backend, &elsewhere)
            #expect(wrongRP.status == 422 && wrongRP.error?.code == "passkey_wrong_rp")
            // The same private key, for re-signing inside the alterations.
            let key = passkey
            let notPresent = try await Self.signIn(backend, &passkey) { body in
                var data = try AuthenticatorData(bytes: try #require(Base64URL.decode(body.authenticatorData)))
                data.flags.remove(.userPresent)
                let clientData = try #require(Base64URL.decode(body.clientDataJson))
                body.authenticatorData = Base64URL.encode(data.encoded)
                body.signature = Base64URL.encode(try Self.resigned(data.encoded, clientData, key))
            }
            #expect(notPresent.status == 422 && notPresent.error?.code == "passkey_user_not_present")
            let trailing = try await Self.signIn(backend, &passkey) { body in
                let data = try #require(Base64URL.decode(body.authenticatorData)) + [0]
                let clientData = try #require(Base64URL.decode(body.clientDataJson))
                body.authenticatorData = Base64URL.encode(data)
                body.signature = Base64URL.encode(try Self.resigned(data, clientData, key))
            }
            #expect(trailing.status == 422 && trailing.error?.code == "passkey_malformed")
            let wrongChallenge = try await Self.signIn(backend, &passkey) { body in
                body.challengeId = try await Self.signInOptions(backend).challengeId
            }
            #expect(wrongChallenge.status == 422 && wrongChallenge.error?.code == "passkey_challenge_mismatch")
            // None of them counted: the next honest answer signs in.
            #expect(try await Self.signIn(backend, &passkey).status == 200)
        }
    }

    @Test func aCounterThatGoesBackFlagsThePasskeyAndTellsTheAccount() async throws {
        try await TestBackend.with { backend in
            var (token, passkey) = try await Self.withPasskey(backend)
            var copy = passkey
            #expect(try await Self.signIn(backend, &passkey).status == 200)
            #expect(try await Self.signIn(backend, &passkey).status == 200)
            // The copy answers with a counter of 1, below the 2 the original reached.
            let cloned = try await Self.signIn(backend, &copy)
            #expect(cloned.status == 403 && cloned.error?.code == "passkey_counter_went_back")
            #expect(try await Self.lastRule(backend, "/auth/passkey/verify") == Rule.passkeyCloned.rawValue)
            let listed = try #require(try await Self.list(backend, token).first)
            #expect(listed.flaggedAsCloned && listed.signCount == 2)
            // A flagged passkey signs nobody in: the account's methods no longer count it.
            #expect(try await Self.passkeyCount(backend, token) == 0)
            let notices = try await backend.outbox().filter { $0.kind == OutboxKind.passkeyClonedNotice.rawValue }
            #expect(notices.count == 1)
            // Flagged: the original is refused too from then on, and it is no way to Verify it's you.
            let after = try await Self.signIn(backend, &passkey)
            #expect(after.status == 403 && after.error?.code == "passkey_counter_went_back")
            let options = try await backend.send(
                .POST, "/auth/reauth/passkey/options", raw: Data("{}".utf8), token: token)
            #expect(options.status == 422 && options.error?.code == "method_unavailable")
            token = try await backend.signIn().accessToken
            let timeline = try await backend.get("/_admin/timeline?user=usr_athlete").data
            #expect(String(decoding: timeline, as: UTF8.self).contains(Rule.passkeyCloned.rawValue))
        }
    }

    @Test func aRemovedOrUnknownPasskeyIsNotFound() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let options = try await Self.signInOptions(backend)
            var stranger = SoftwareAuthenticator.create(
                rpID: options.rpId, origin: Self.origin, challenge: [1, 2, 3], userHandle: Array("usr_x".utf8),
                userName: "x"
            ).passkey
            let unknown = try await Self.signIn(backend, &stranger, options: options)
            #expect(unknown.status == 404 && unknown.error?.code == "passkey_not_found")
            _ = token
        }
    }

    // MARK: Verify it's you and removal

    @Test func removingNeedsAGrantByAnotherMethodAndTellsTheAccount() async throws {
        try await TestBackend.with { backend in
            var (token, passkey) = try await Self.withPasskey(backend)
            let path = "/me/passkeys/\(Base64URL.encode(passkey.credentialID))"
            let unverified = try await backend.send(.DELETE, path, token: token)
            #expect(unverified.status == 403 && unverified.error?.code == "reauth_required")
            let byPasskey = try await Self.reauth(backend, token, &passkey)
            #expect(byPasskey.status == 200)
            let passkeyGrant: ReauthGrant = try byPasskey.decode()
            #expect(passkeyGrant.method.known == .passkey)
            let byTarget = try await backend.send(.DELETE, path, token: token, reauth: passkeyGrant.reauthToken)
            #expect(byTarget.status == 403 && byTarget.error?.code == "reauth_required")
            let grant = try await backend.passwordGrant(token: token)
            let removed = try await backend.send(.DELETE, path, token: token, reauth: grant.reauthToken)
            #expect(removed.status == 204)
            #expect(try await Self.lastRule(backend, path) == Rule.passkeyRemoved.rawValue)
            #expect(try await Self.list(backend, token).isEmpty)
            let removedNotices = try await backend.outbox().filter {
                $0.kind == OutboxKind.passkeyRemovedNotice.rawValue
            }
            #expect(removedNotices.count == 1)
            let gone = try await Self.signIn(backend, &passkey)
            #expect(gone.status == 404 && gone.error?.code == "passkey_not_found")
            let again = try await backend.send(.DELETE, path, token: token, reauth: grant.reauthToken)
            #expect(again.status == 404 && again.error?.code == "passkey_not_found")
        }
    }

    @Test func aPasskeyGrantVerifiesAnotherChange() async throws {
        try await TestBackend.with { backend in
            var (token, passkey) = try await Self.withPasskey(backend)
            let grant: ReauthGrant = try await Self.reauth(backend, token, &passkey).decode()
            #expect(try await Self.lastRule(backend, "/auth/reauth/passkey") == Rule.reauthGranted.rawValue)
            let disconnected = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .google), token: token,
                reauth: grant.reauthToken)
            #expect(disconnected.status == 200)
        }
    }

    @Test func anAccountWithoutAPasskeyCannotVerifyWithOne() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let options = try await backend.send(
                .POST, "/auth/reauth/passkey/options", raw: Data("{}".utf8), token: token)
            #expect(options.status == 422 && options.error?.code == "method_unavailable")
        }
    }

    /// The last-method guard counts a passkey: Apple may go while a passkey stays, and then the passkey may not.
    @Test func aPasskeyIsASignInMethodForTheLastMethodGuards() async throws {
        try await TestBackend.with(scenario: "apple-only") { backend in
            var (token, passkey) = try await Self.withPasskey(backend)
            let grant: ReauthGrant = try await Self.reauth(backend, token, &passkey).decode()
            let disconnected = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token,
                reauth: grant.reauthToken)
            #expect(disconnected.status == 200)
            let path = "/me/passkeys/\(Base64URL.encode(passkey.credentialID))"
            let last = try await backend.send(.DELETE, path, token: token, reauth: grant.reauthToken)
            #expect(last.status == 409 && last.error?.code == "last_method")
            #expect(try await Self.lastRule(backend, path) == Rule.passkeyLastMethod.rawValue)
            #expect(try await Self.list(backend, token).count == 1)
            // And it signs the account in, the only way left.
            #expect(try await Self.signIn(backend, &passkey).status == 200)
        }
    }

    @Test func withTwoPasskeysOneMayGoAndTheLastMayNot() async throws {
        try await TestBackend.with(scenario: "apple-only") { backend in
            var (token, passkey) = try await Self.withPasskey(backend)
            let options = try await Self.registrationOptions(backend, token)
            let second = try Self.created(options)
            #expect(try await Self.register(backend, token, second, challengeId: options.challengeId).status == 201)
            #expect(try await Self.passkeyCount(backend, token) == 2)
            let grant: ReauthGrant = try await Self.reauth(backend, token, &passkey).decode()
            #expect(
                try await backend.post(
                    "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token,
                    reauth: grant.reauthToken
                ).status == 200)
            // Two passkeys: one may go (the session verifies: only passkeys are left to verify with).
            let first = "/me/passkeys/\(Base64URL.encode(passkey.credentialID))"
            #expect(try await backend.send(.DELETE, first, token: token).status == 204)
            #expect(try await Self.passkeyCount(backend, token) == 1)
            let other = "/me/passkeys/\(Base64URL.encode(second.passkey.credentialID))"
            #expect(try await backend.send(.DELETE, other, token: token).status == 409)
        }
    }

    /// `AuthMethods.passkeys`: how many passkeys the account's methods count (absent is none).
    static func passkeyCount(_ backend: TestBackend, _ token: String) async throws -> Int {
        let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
        return methods.passkeys ?? 0
    }
}
