import Crypto

/// A passkey as this device keeps it: the private key never leaves it (not through `print`, `dump` or a
/// string interpolation; only `Codable` writes it, for the 0600 key file).
public struct DevicePasskey: Codable, Equatable, Sendable {
    public var credentialID: [UInt8]
    public var rpID: String
    public var userHandle: [UInt8]
    public var userName: String
    public var signCount: UInt32
    fileprivate var privateKey: PrivateKey

    public var publicKey: COSEKey { .es256(privateKey.key.publicKey) }

    /// A passkey handed to this device whole (a scenario's "on this device" passkey, `GET /_admin/device/passkeys`):
    /// `privateKey` is the P-256 key's raw 32 bytes; other bytes are refused.
    public init(
        credentialID: [UInt8], rpID: String, userHandle: [UInt8], userName: String, signCount: UInt32,
        privateKey raw: [UInt8]
    ) throws(WebAuthnError) {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else {
            throw .malformed("the private key is not a P-256 key")
        }
        self.init(
            credentialID: credentialID, rpID: rpID, userHandle: userHandle, userName: userName, signCount: signCount,
            privateKey: .init(key))
    }

    fileprivate init(
        credentialID: [UInt8], rpID: String, userHandle: [UInt8], userName: String, signCount: UInt32,
        privateKey: PrivateKey
    ) {
        self.credentialID = credentialID
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.signCount = signCount
        self.privateKey = privateKey
    }

    /// A P-256 private key, out of every description; written as its raw bytes, and a file whose bytes
    /// are not a P-256 key does not decode.
    fileprivate struct PrivateKey: Codable, Equatable, Sendable, CustomStringConvertible,
        CustomDebugStringConvertible, CustomReflectable
    {
        let key: P256.Signing.PrivateKey

        init(_ key: P256.Signing.PrivateKey) { self.key = key }

        init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode([UInt8].self)
            key = try P256.Signing.PrivateKey(rawRepresentation: raw)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode([UInt8](key.rawRepresentation))
        }

        static func == (left: Self, right: Self) -> Bool { left.key.rawRepresentation == right.key.rawRepresentation }
        var description: String { "<private key>" }
        var debugDescription: String { description }
        var customMirror: Mirror { Mirror(self, children: []) }
    }
}

/// The app as a platform authenticator, like Chrome's virtual authenticator: it makes ES256 credentials
/// and answers sign-ins with real authenticator data and signatures, for a relying party to check as it
/// would a phone's.
public enum SoftwareAuthenticator {
    /// Ours, so a relying party's journal can tell AccessDeck's passkeys from a real authenticator's.
    public static let aaguid: [UInt8] = Array("AccessDeck-v1\u{0}\u{0}\u{0}".utf8)

    public enum Attestation: Sendable { case none, packedSelf }

    public struct Created: Sendable {
        public var passkey: DevicePasskey
        public var clientDataJSON: [UInt8]
        public var attestationObject: [UInt8]
    }

    public struct Answer: Sendable {
        public var credentialID: [UInt8]
        public var clientDataJSON: [UInt8]
        public var authenticatorData: [UInt8]
        public var signature: [UInt8]
        public var userHandle: [UInt8]
    }

    public static func create(
        rpID: String, origin: String, challenge: [UInt8], userHandle: [UInt8], userName: String,
        attestation: Attestation = .none, userVerified: Bool = true
    ) -> Created {
        let key = P256.Signing.PrivateKey()
        var generator = SystemRandomNumberGenerator()
        let credentialID = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let passkey = DevicePasskey(
            credentialID: credentialID, rpID: rpID, userHandle: userHandle, userName: userName, signCount: 0,
            privateKey: .init(key))
        let clientData = CollectedClientData(type: CollectedClientData.createType, challenge: challenge, origin: origin)
        let data = AuthenticatorData(
            rpIDHash: RelyingParty(id: rpID, origins: []).idHash, flags: flags(userVerified: userVerified),
            signCount: 0,
            attestedCredential: .init(aaguid: aaguid, credentialID: credentialID, publicKey: .es256(key.publicKey)))
        let statement: CBOR
        switch attestation {
        case .none:
            statement = .map([])
        case .packedSelf:
            let signed = data.encoded + Array(SHA256.hash(data: clientData.json))
            let signature = (try? key.signature(for: signed))?.derRepresentation ?? .init()
            statement = .map([
                .init(.text("alg"), .int(COSEAlgorithm.es256.rawValue)),
                .init(.text("sig"), .bytes([UInt8](signature))),
            ])
        }
        let object = CBOR.map([
            .init(.text("fmt"), .text(attestation == .none ? "none" : "packed")), .init(.text("attStmt"), statement),
            .init(.text("authData"), .bytes(data.encoded)),
        ])
        return Created(passkey: passkey, clientDataJSON: clientData.json, attestationObject: object.encoded)
    }

    /// Signs a sign-in with the passkey and counts it (the counter grows by one per use, so a copy that
    /// answers with an older counter shows).
    public static func answer(
        _ passkey: inout DevicePasskey, origin: String, challenge: [UInt8], userVerified: Bool = true
    ) -> Answer {
        passkey.signCount &+= 1
        let clientData = CollectedClientData(type: CollectedClientData.getType, challenge: challenge, origin: origin)
        let data = AuthenticatorData(
            rpIDHash: RelyingParty(id: passkey.rpID, origins: []).idHash, flags: flags(userVerified: userVerified),
            signCount: passkey.signCount
        ).encoded
        let signed = data + Array(SHA256.hash(data: clientData.json))
        let signature = (try? passkey.privateKey.key.signature(for: signed))?.derRepresentation ?? .init()
        return Answer(
            credentialID: passkey.credentialID, clientDataJSON: clientData.json, authenticatorData: data,
            signature: [UInt8](signature), userHandle: passkey.userHandle)
    }

    private static func flags(userVerified: Bool) -> AuthenticatorData.Flags {
        // A platform passkey is backup eligible and synced, as a phone's is.
        var flags: AuthenticatorData.Flags = [.userPresent, .backupEligible, .backedUp]
        if userVerified { flags.insert(.userVerified) }
        return flags
    }
}
