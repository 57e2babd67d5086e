import Crypto

/// What a relying party checks of a registration and of a sign-in (WebAuthn Level 3 §7.1 and §7.2):
/// the client data's type, challenge and origin; the authenticator data's RP ID hash and flags; the
/// attestation ("none", or "packed" self attestation); the signature; and the signature counter. Which
/// credential and which challenge are the backend's to find; this only judges the bytes.
public struct RelyingParty: Sendable {
    public let id: String
    public let origins: [String]

    public init(id: String, origins: [String]) {
        self.id = id
        self.origins = origins
    }

    public var idHash: [UInt8] { Array(SHA256.hash(data: Array(id.utf8))) }

    public struct Registration: Equatable, Sendable {
        public var credentialID: [UInt8]
        public var publicKey: COSEKey
        public var signCount: UInt32
        public var aaguid: [UInt8]
        public var attestationFormat: String
        public var userVerified: Bool
        public var backupEligible: Bool
        public var backedUp: Bool
    }

    public struct Assertion: Equatable, Sendable {
        public var signCount: UInt32
        public var userVerified: Bool
        public var backedUp: Bool
    }

    public func verifyRegistration(
        clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8],
        requireUserVerification: Bool = true, algorithms: Set<COSEAlgorithm> = Set(COSEAlgorithm.allCases)
    ) throws(WebAuthnError) -> Registration {
        try checkClientData(clientDataJSON, type: CollectedClientData.createType, challenge: challenge)
        let object: CBOR
        do { object = try CBORDecoder.decode(attestationObject) } catch {
            throw .malformed("the attestation object is not CBOR (\(error))")
        }
        guard let pairs = object.mapValue, pairs.count == 3, let format = object[key: "fmt"]?.textValue,
            let statement = object[key: "attStmt"], statement.mapValue != nil,
            let authenticatorBytes = object[key: "authData"]?.bytesValue
        else { throw .malformed("the attestation object is not {fmt, attStmt, authData}") }
        let data = try AuthenticatorData(bytes: authenticatorBytes)
        try checkAuthenticatorData(data, requireUserVerification: requireUserVerification)
        guard let credential = data.attestedCredential else {
            throw .malformed("a registration carries no attested credential")
        }
        guard algorithms.contains(credential.publicKey.algorithm) else {
            throw .unsupportedAlgorithm(credential.publicKey.algorithm.rawValue)
        }
        let signed = authenticatorBytes + Array(SHA256.hash(data: clientDataJSON))
        try checkAttestation(format: format, statement: statement, key: credential.publicKey, signed: signed)
        return Registration(
            credentialID: credential.credentialID, publicKey: credential.publicKey, signCount: data.signCount,
            aaguid: credential.aaguid, attestationFormat: format, userVerified: data.flags.contains(.userVerified),
            backupEligible: data.flags.contains(.backupEligible), backedUp: data.flags.contains(.backedUp))
    }

    /// `storedSignCount` is the counter the credential last reported; an answer whose counter does not
    /// grow past it, where either is not zero, comes from a copy of the authenticator.
    public func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData authenticatorBytes: [UInt8], signature: [UInt8],
        challenge: [UInt8], publicKey: COSEKey, storedSignCount: UInt32, requireUserVerification: Bool = true
    ) throws(WebAuthnError) -> Assertion {
        try checkClientData(clientDataJSON, type: CollectedClientData.getType, challenge: challenge)
        let data = try AuthenticatorData(bytes: authenticatorBytes)
        try checkAuthenticatorData(data, requireUserVerification: requireUserVerification)
        guard data.attestedCredential == nil else { throw .malformed("a sign-in carries an attested credential") }
        let signed = authenticatorBytes + Array(SHA256.hash(data: clientDataJSON))
        guard publicKey.isValidSignature(signature, for: signed) else { throw .badSignature }
        if storedSignCount != 0 || data.signCount != 0, data.signCount <= storedSignCount {
            throw .counterWentBack(stored: storedSignCount, received: data.signCount)
        }
        return Assertion(
            signCount: data.signCount, userVerified: data.flags.contains(.userVerified),
            backedUp: data.flags.contains(.backedUp))
    }

    private func checkClientData(_ json: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnError) {
        let clientData = try CollectedClientData(json: json)
        guard clientData.type == type else { throw .wrongType(expected: type) }
        guard let sent = Base64URL.decode(clientData.challenge), Self.sameBytes(sent, challenge) else {
            throw .challengeMismatch
        }
        guard origins.contains(clientData.origin) else { throw .wrongOrigin(clientData.origin) }
        guard clientData.crossOrigin != true else { throw .wrongOrigin(clientData.origin) }
    }

    private func checkAuthenticatorData(_ data: AuthenticatorData, requireUserVerification: Bool) throws(WebAuthnError)
    {
        guard Self.sameBytes(data.rpIDHash, idHash) else { throw .wrongRelyingParty }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        if requireUserVerification, !data.flags.contains(.userVerified) { throw .userNotVerified }
        // §6.3.3: a credential cannot be backed up unless it may be.
        if data.flags.contains(.backedUp), !data.flags.contains(.backupEligible) {
            throw .malformed("backed up but not backup eligible")
        }
    }

    private func checkAttestation(
        format: String, statement: CBOR, key: COSEKey, signed: [UInt8]
    ) throws(WebAuthnError) {
        switch format {
        case "none":
            guard statement.mapValue?.isEmpty == true else { throw .badAttestation("\"none\" with a statement") }
        case "packed":
            guard statement[key: "x5c"] == nil else {
                throw .unsupportedAttestation("packed with a certificate chain")
            }
            guard let algorithm = statement[key: "alg"]?.intValue, let signature = statement[key: "sig"]?.bytesValue,
                statement.mapValue?.count == 2
            else { throw .badAttestation("packed self attestation is not {alg, sig}") }
            guard algorithm == key.algorithm.rawValue else {
                throw .badAttestation("the statement's algorithm is not the credential's")
            }
            guard key.isValidSignature(signature, for: signed) else {
                throw .badAttestation("the signature does not verify")
            }
        default:
            throw .unsupportedAttestation(format)
        }
    }

    /// In constant time: a challenge compared byte by byte must not say how much of it matched.
    static func sameBytes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
