import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Passkeys (issue 53): WebAuthn registration, discoverable sign-in and Verify it's you, each ceremony a one-shot
/// challenge the server made (`PasskeyRules.challengeLifetime`) and an answer `RelyingParty` (AccessCore) judges.
/// This service finds the challenge and the credential and keeps what the answer changes: the counter, the last
/// use, a clone's flag. Every rule here decides inside one write transaction; a refusal that must leave a trace (a
/// spent challenge, a flagged clone) is returned from the transaction rather than thrown, so it commits.
struct PasskeyService: Sendable {
    let store: Store
    let clock: BackendClock
    let relyingParty: RelyingParty

    // MARK: - Registration

    func registrationOptions(user: UserRecord) async throws -> PasskeyCreationOptions {
        let now = clock.now()
        return try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            let (id, challenge) = try Self.newChallenge(db, purpose: .register, userId: user.id, now: now)
            let registered = try Self.passkeys(db, userId: user.id).map(\.credentialId)
            return PasskeyCreationOptions(
                challengeId: id, challenge: Base64URL.encode(challenge), rpId: relyingParty.id,
                rpName: PasskeyRelyingParty.referenceName, userHandle: Base64URL.encode(Self.userHandle(user.id)),
                userName: user.email ?? user.phone ?? user.id,
                algorithms: [COSEAlgorithm.es256.rawValue, COSEAlgorithm.edDSA.rawValue],
                excludeCredentials: registered, userVerification: "required", attestation: "none",
                expiresAt: now.addingTimeInterval(PasskeyRules.challengeLifetime))
        }
    }

    func register(user: UserRecord, body: PasskeyRegistrationBody) async throws -> Passkey {
        let now = clock.now()
        let name = try Self.validName(body.name ?? PasskeyRules.defaultName)
        if let device = body.deviceName, device.isEmpty || device.unicodeScalars.count > Self.maxDeviceNameLength {
            throw Self.invalidField("device_name: expected 1 to \(Self.maxDeviceNameLength) characters.")
        }
        let clientData = try Self.bytes(body.clientDataJson, "client_data_json")
        let attestation = try Self.bytes(body.attestationObject, "attestation_object")
        let outcome: Result<Passkey, BackendError> = try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            let challenge = try Self.spend(db, id: body.challengeId, purpose: .register, userId: user.id, now: now)
            let registration: RelyingParty.Registration
            switch verify(clientData: clientData, attestation: attestation, challenge: challenge) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let verified): registration = verified
            }
            let id = Base64URL.encode(registration.credentialID)
            // WebAuthn §7.1 step 22: a credential id registered already (to anyone) is refused.
            guard try PasskeyRecord.fetchOne(db, key: id) == nil else {
                return .failure(
                    BackendError(
                        .conflict, "passkey_exists", "This passkey is already saved.", rule: .passkeyRefused))
            }
            let record = PasskeyRecord(
                credentialId: id, userId: user.id, publicKey: Data(registration.publicKey.cbor.encoded),
                signCount: Int64(registration.signCount), name: name, createdAt: now.unix, lastUsedAt: nil,
                deviceName: body.deviceName, attestationFormat: registration.attestationFormat, flaggedAt: nil)
            // Not kept (conform's self-test): the answer says registered, and nothing is stored.
            guard RulePolicy.current.enforces(.passkeyRegistered) else { return .success(record.listed) }
            try record.insert(db)
            try Self.countLive(db, userId: user.id)
            try Self.notify(db, user: user, kind: .passkeyAddedNotice, now: now)
            try EventLog.append(
                db,
                .init(
                    kind: .methodAdded, userId: user.id, rule: .passkeyRegistered,
                    detail: ["method": "passkey", "name": name, "attestation": registration.attestationFormat]),
                now: now)
            return .success(record.listed)
        }
        return try outcome.get()
    }

    /// §7.1's checks (`RelyingParty`), outside the transaction's closure: the compiler here cannot capture a
    /// caught error in one.
    private func verify(
        clientData: [UInt8], attestation: [UInt8], challenge: [UInt8]
    ) -> Result<RelyingParty.Registration, BackendError> {
        do throws(WebAuthnError) {
            return .success(
                try relyingParty.verifyRegistration(
                    clientDataJSON: clientData, attestationObject: attestation, challenge: challenge))
        } catch {
            return .failure(Self.refusal(error))
        }
    }

    /// §7.2's checks and the counter rule (`RelyingParty`), as a value: the compiler here cannot capture a caught
    /// error in the transaction's closure.
    private func verify(
        _ answer: Answer, challenge: [UInt8], key: COSEKey, storedSignCount: Int64
    ) -> Result<RelyingParty.Assertion, WebAuthnError> {
        do throws(WebAuthnError) {
            return .success(
                try relyingParty.verifyAssertion(
                    clientDataJSON: answer.clientData, authenticatorData: answer.authenticatorData,
                    signature: answer.signature, challenge: challenge, publicKey: key,
                    storedSignCount: UInt32(clamping: storedSignCount)))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - The list

    func list(user: UserRecord) async throws -> PasskeyList {
        try await store.pool.read { db in
            PasskeyList(passkeys: try Self.passkeys(db, userId: user.id).map(\.listed))
        }
    }

    func rename(user: UserRecord, id: String, name: String) async throws -> Passkey {
        let name = try Self.validName(name)
        return try await store.pool.write { db in
            var passkey = try Self.own(db, id: id, userId: user.id)
            passkey.name = name
            // Not kept (conform's self-test): the answer has the new name, the list keeps the old one.
            guard RulePolicy.current.enforces(.passkeyRenamed) else { return passkey.listed }
            try passkey.update(db)
            return passkey.listed
        }
    }

    /// After Verify it's you (a passkey's own grant does not verify removing one, as no Apple grant disconnects
    /// Apple), and never the account's last way in.
    func remove(user: UserRecord, id: String, reauth: ReauthProof) async throws {
        let now = clock.now()
        try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            try ReauthService.require(
                db, digest: store.digest, proof: reauth, user: user, target: SignInMethod.passkey.reauthFactor,
                now: now)
            try Self.remove(db, Self.own(db, id: id, userId: user.id), of: user, now: now)
        }
    }

    /// The palette's "Passkey: remove on the server only" (`DELETE /_admin/passkeys/{id}`): passkey `id` of
    /// whichever account holds it, as the account's other device would after its own Verify it's you. The device
    /// that holds the private key keeps it, and learns at its next sign-in.
    func removeByAdmin(id: String) async throws {
        let now = clock.now()
        try await store.pool.write { db in
            guard let passkey = try PasskeyRecord.fetchOne(db, key: id) else { throw Self.notFound }
            try Self.remove(db, passkey, of: AccountService.current(db, id: passkey.userId), now: now)
        }
    }

    /// Every road that removes a passkey: never the account's last way in, then the notice and the event.
    private static func remove(_ db: Database, _ passkey: PasskeyRecord, of user: UserRecord, now: Date) throws {
        // A flagged passkey signs nobody in: removing it never takes the last way in away.
        if passkey.flaggedAt == nil, user.livePasskeys == 1, user.signInMethods.isOnly(.passkey) {
            throw BackendError(
                .conflict, "last_method",
                "This passkey is your only way to sign in. Add another method before removing it.",
                rule: .passkeyLastMethod)
        }
        // Not kept (conform's self-test): the answer says removed, and the passkey stays.
        guard RulePolicy.current.enforces(.passkeyRemoved) else { return }
        try passkey.delete(db)
        try countLive(db, userId: user.id)
        try notify(db, user: user, kind: .passkeyRemovedNotice, now: now)
        try EventLog.append(
            db,
            .init(
                kind: .methodRemoved, userId: user.id, rule: .passkeyRemoved,
                detail: ["method": "passkey", "name": passkey.name]),
            now: now)
    }

    // MARK: - Sign-in and Verify it's you

    func signInOptions() async throws -> PasskeyRequestOptions {
        let now = clock.now()
        return try await store.pool.write { db in
            let (id, challenge) = try Self.newChallenge(db, purpose: .signIn, userId: nil, now: now)
            return PasskeyRequestOptions(
                challengeId: id, challenge: Base64URL.encode(challenge), rpId: relyingParty.id, allowCredentials: [],
                userVerification: "required", expiresAt: now.addingTimeInterval(PasskeyRules.challengeLifetime))
        }
    }

    func signIn(_ body: PasskeySignInBody) async throws -> SignedIn {
        let now = clock.now()
        try DeviceService.validate(body.device)
        let answer = try Answer(
            challengeId: body.challengeId, credentialId: body.credentialId, clientDataJson: body.clientDataJson,
            authenticatorData: body.authenticatorData, signature: body.signature, userHandle: body.userHandle)
        let outcome: Result<SignedIn, BackendError> = try await store.pool.write { db in
            let challenge = try Self.spend(db, id: answer.challengeId, purpose: .signIn, userId: nil, now: now)
            let passkey: PasskeyRecord
            switch try check(db, answer, challenge: challenge, userId: nil, now: now) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let checked): passkey = checked
            }
            let user = try AccountService.current(db, id: passkey.userId)
            return .success(
                try SignInService.finish(
                    db, digest: store.digest, user: user, isNew: false, device: body.device, method: .passkey,
                    now: now))
        }
        return try outcome.get()
    }

    func reauthOptions(user: UserRecord) async throws -> PasskeyRequestOptions {
        let now = clock.now()
        return try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            let live = try Self.passkeys(db, userId: user.id).filter { $0.flaggedAt == nil }
            guard !live.isEmpty else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no passkey.",
                    rule: .reauthMethodUnavailable)
            }
            let (id, challenge) = try Self.newChallenge(db, purpose: .reauth, userId: user.id, now: now)
            return PasskeyRequestOptions(
                challengeId: id, challenge: Base64URL.encode(challenge), rpId: relyingParty.id,
                allowCredentials: live.map(\.credentialId), userVerification: "required",
                expiresAt: now.addingTimeInterval(PasskeyRules.challengeLifetime))
        }
    }

    /// `accessHash`: the request's session, which the grant will belong to.
    func reauth(user: UserRecord, accessHash: String?, body: PasskeyAssertionBody) async throws -> ReauthGrant {
        let now = clock.now()
        let answer = try Answer(
            challengeId: body.challengeId, credentialId: body.credentialId, clientDataJson: body.clientDataJson,
            authenticatorData: body.authenticatorData, signature: body.signature, userHandle: body.userHandle)
        let outcome: Result<ReauthGrant, BackendError> = try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            let challenge = try Self.spend(db, id: answer.challengeId, purpose: .reauth, userId: user.id, now: now)
            if case .failure(let refusal) = try check(db, answer, challenge: challenge, userId: user.id, now: now) {
                return .failure(refusal)
            }
            return .success(
                try ReauthService.issue(
                    db, store: store, userId: user.id, accessHash: accessHash, method: .passkey, now: now))
        }
        return try outcome.get()
    }

    /// An assertion as it came, its binary fields decoded.
    struct Answer {
        var challengeId: String
        var credentialId: String
        var clientData: [UInt8]
        var authenticatorData: [UInt8]
        var signature: [UInt8]
        var userHandle: [UInt8]?

        init(
            challengeId: String, credentialId: String, clientDataJson: String, authenticatorData: String,
            signature: String, userHandle: String?
        ) throws {
            self.challengeId = challengeId
            self.credentialId = credentialId
            clientData = try PasskeyService.bytes(clientDataJson, "client_data_json")
            self.authenticatorData = try PasskeyService.bytes(authenticatorData, "authenticator_data")
            self.signature = try PasskeyService.bytes(signature, "signature")
            self.userHandle = try userHandle.map { try PasskeyService.bytes($0, "user_handle") }
        }
    }

    /// §7.2 for a sign-in (`userId` nil: any account's credential) or a re-auth (that account's only): the
    /// credential, the relying party's checks, then the counter. A counter that did not grow flags the passkey and
    /// tells the account; a flagged passkey is refused from then on. On success the counter and the last use are
    /// kept.
    private func check(
        _ db: Database, _ answer: Answer, challenge: [UInt8], userId: String?, now: Date
    ) throws -> Result<PasskeyRecord, BackendError> {
        guard var passkey = try PasskeyRecord.fetchOne(db, key: answer.credentialId),
            userId == nil || passkey.userId == userId
        else { return .failure(Self.notFound) }
        // A discoverable credential names its account; one that names another is not this passkey's answer.
        if let handle = answer.userHandle, handle != Self.userHandle(passkey.userId) {
            return .failure(Self.refusal(.malformed("the user handle is not the credential's account")))
        }
        guard passkey.flaggedAt == nil else { return .failure(Self.cloned) }
        guard let cbor = try? CBORDecoder.decode(Array(passkey.publicKey)), let key = try? COSEKey(cbor: cbor) else {
            throw BackendError(.internalServerError, "internal", "Something went wrong.", rule: .httpInternal)
        }
        let assertion: RelyingParty.Assertion
        switch verify(answer, challenge: challenge, key: key, storedSignCount: passkey.signCount) {
        case .success(let verified):
            assertion = verified
        case .failure(.counterWentBack):
            // Not kept (conform's self-test): the copy's answer is taken.
            guard RulePolicy.current.enforces(.passkeyCloned) else { return .success(passkey) }
            passkey.flaggedAt = now.unix
            try passkey.update(db)
            try Self.countLive(db, userId: passkey.userId)
            let user = try AccountService.current(db, id: passkey.userId)
            try Self.notify(db, user: user, kind: .passkeyClonedNotice, now: now)
            try EventLog.append(
                db,
                .init(
                    kind: .signInRefused, userId: user.id, rule: .passkeyCloned,
                    detail: ["method": "passkey", "name": passkey.name, "code": Self.cloned.detail.code.rawValue]),
                now: now)
            return .failure(Self.cloned)
        case .failure(let refused):
            return .failure(Self.refusal(refused))
        }
        passkey.lastUsedAt = now.unix
        passkey.signCount = Int64(assertion.signCount)
        // Not kept (conform's self-test): the sign-in goes through and the counter and last use are not stored.
        if RulePolicy.current.enforces(.passkeySignedIn) { try passkey.update(db) }
        return .success(passkey)
    }

    // MARK: - Rules shared by the ceremonies

    /// A new challenge of `PasskeyRules.challengeBytes` random bytes, for `PasskeyRules.challengeLifetime`.
    private static func newChallenge(
        _ db: Database, purpose: PasskeyChallengeRecord.Purpose, userId: String?, now: Date
    ) throws -> (id: String, bytes: [UInt8]) {
        try db.execute(sql: "DELETE FROM passkey_challenges WHERE expires_at <= ?", arguments: [now.unix])
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<PasskeyRules.challengeBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let id = Secrets.identifier(prefix: "pkc_")
        try PasskeyChallengeRecord(
            id: id, challenge: Data(bytes), purpose: purpose, userId: userId,
            expiresAt: now.addingTimeInterval(PasskeyRules.challengeLifetime).unix
        ).insert(db)
        return (id, bytes)
    }

    /// The challenge's bytes, spent: a challenge answers one ceremony, whatever that answer's fate. Unknown, used,
    /// past its lifetime, of another purpose or another account: 410 passkey_challenge_expired.
    private static func spend(
        _ db: Database, id: String, purpose: PasskeyChallengeRecord.Purpose, userId: String?, now: Date
    ) throws -> [UInt8] {
        guard var challenge = try PasskeyChallengeRecord.fetchOne(db, key: id), !challenge.used,
            challenge.expiresAt > now.unix, challenge.purpose == purpose, challenge.userId == userId
        else {
            throw BackendError(
                .gone, "passkey_challenge_expired", "This passkey request has expired. Try again.",
                rule: .passkeyChallengeExpired)
        }
        challenge.used = true
        try challenge.update(db)
        return Array(challenge.challenge)
    }

    /// The account's passkeys, oldest first.
    private static func passkeys(_ db: Database, userId: String) throws -> [PasskeyRecord] {
        try PasskeyRecord.fetchAll(
            db, sql: "SELECT * FROM passkeys WHERE user_id = ? ORDER BY created_at, credential_id",
            arguments: [userId])
    }

    private static func own(_ db: Database, id: String, userId: String) throws -> PasskeyRecord {
        guard let passkey = try PasskeyRecord.fetchOne(db, key: id), passkey.userId == userId else { throw notFound }
        return passkey
    }

    /// `users.live_passkeys` from the rows, in the transaction that changed them.
    static func countLive(_ db: Database, userId: String) throws {
        try db.execute(
            sql: """
                UPDATE users SET live_passkeys =
                    (SELECT COUNT(*) FROM passkeys WHERE user_id = ? AND flagged_at IS NULL)
                WHERE id = ?
                """,
            arguments: [userId, userId])
    }

    /// Like every other change of a sign-in method, told to the account's email (none without one).
    private static func notify(_ db: Database, user: UserRecord, kind: OutboxKind, now: Date) throws {
        guard let email = user.email else { return }
        try OutboxService.send(
            db, .init(channel: .email, recipient: email, kind: kind, purpose: "passkey"), now: now)
    }

    /// The user handle a discoverable credential answers with: the account id's bytes (no address or name in it,
    /// as WebAuthn §14.6.1 asks).
    static func userHandle(_ userId: String) -> [UInt8] { Array(userId.utf8) }

    static let maxDeviceNameLength = 100

    private static func validName(_ typed: String) throws -> String {
        let name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, typed.unicodeScalars.count <= PasskeyRules.maxNameLength else {
            throw invalidField("name: expected 1 to \(PasskeyRules.maxNameLength) characters, not only spaces.")
        }
        return name
    }

    static func bytes(_ field: String, _ name: String) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(field), !bytes.isEmpty else {
            throw invalidField("\(name): expected base64url without padding.")
        }
        return bytes
    }

    private static func invalidField(_ message: String) -> BackendError {
        BackendError(.unprocessableContent, "invalid_field", message, rule: .httpInvalidField)
    }

    static func refusal(_ error: WebAuthnError) -> BackendError {
        guard let code = ErrorCode(rawValue: error.code) else {
            preconditionFailure("\(error.code) is not an ErrorCode of openapi.yaml")
        }
        return BackendError(
            .unprocessableContent, code, "Your passkey couldn't be verified. Try again.", rule: .passkeyRefused)
    }

    static let notFound = BackendError(
        .notFound, "passkey_not_found", "This passkey isn't saved for any account. Sign in another way.",
        rule: .passkeyNotFound)

    static let cloned = BackendError(
        .forbidden, "passkey_counter_went_back",
        "This passkey was turned off because a copy of it was used. Sign in another way.", rule: .passkeyCloned)
}

extension PasskeyRecord {
    var listed: Passkey {
        Passkey(
            id: credentialId, name: name, createdAt: Date(unix: createdAt),
            lastUsedAt: lastUsedAt.map(Date.init(unix:)),
            deviceName: deviceName, signCount: signCount, attestationFormat: attestationFormat,
            flaggedAsCloned: flaggedAt != nil)
    }
}
