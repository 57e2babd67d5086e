/// The bytes an authenticator signs over (WebAuthn §6.1): the hash of the relying party's id, the
/// flags, the signature counter, and on registration the new credential with its public key.
public struct AuthenticatorData: Equatable, Sendable {
    public struct Flags: OptionSet, Equatable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        public static let backupEligible = Flags(rawValue: 0x08)
        public static let backedUp = Flags(rawValue: 0x10)
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        public static let extensionData = Flags(rawValue: 0x80)
    }

    public struct AttestedCredential: Equatable, Sendable {
        public var aaguid: [UInt8]
        public var credentialID: [UInt8]
        public var publicKey: COSEKey

        public init(aaguid: [UInt8], credentialID: [UInt8], publicKey: COSEKey) {
            self.aaguid = aaguid
            self.credentialID = credentialID
            self.publicKey = publicKey
        }
    }

    /// §6.5.1: a credential id is at most 1023 bytes.
    public static let maximumCredentialIDLength = 1023

    public var rpIDHash: [UInt8]
    public var flags: Flags
    public var signCount: UInt32
    public var attestedCredential: AttestedCredential?
    public var extensions: CBOR?

    public init(
        rpIDHash: [UInt8], flags: Flags, signCount: UInt32, attestedCredential: AttestedCredential? = nil,
        extensions: CBOR? = nil
    ) {
        self.rpIDHash = rpIDHash
        self.flags = flags
        self.signCount = signCount
        self.attestedCredential = attestedCredential
        self.extensions = extensions
    }

    /// Read strictly: the flags say what follows, and what they do not announce may not be there.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data is shorter than 37 bytes") }
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= position + 18 else { throw .malformed("the attested credential is cut short") }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length <= Self.maximumCredentialIDLength else { throw .malformed("the credential id is too long") }
            guard bytes.count >= position + length else { throw .malformed("the credential id is cut short") }
            let credentialID = Array(bytes[position..<position + length])
            position += length
            let key: CBOR
            do { (key, position) = try CBORDecoder.decodePrefix(bytes, from: position) } catch {
                throw .malformed("the public key is not CBOR (\(error))")
            }
            attestedCredential = AttestedCredential(
                aaguid: aaguid, credentialID: credentialID, publicKey: try COSEKey(cbor: key))
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            let value: CBOR
            do { (value, position) = try CBORDecoder.decodePrefix(bytes, from: position) } catch {
                throw .malformed("the extensions are not CBOR (\(error))")
            }
            guard value.mapValue != nil else { throw .malformed("the extensions are not a map") }
            extensions = value
        } else {
            extensions = nil
        }
        guard position == bytes.count else { throw .malformed("authenticator data has trailing bytes") }
    }

    public var encoded: [UInt8] {
        var flags = flags
        if attestedCredential != nil { flags.insert(.attestedCredentialData) }
        if extensions != nil { flags.insert(.extensionData) }
        var out = rpIDHash + [flags.rawValue]
        out += (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> (8 * $0)) }
        if let credential = attestedCredential {
            out += credential.aaguid
            out += [
                UInt8(credential.credentialID.count >> 8), UInt8(truncatingIfNeeded: credential.credentialID.count),
            ]
            out += credential.credentialID
            out += credential.publicKey.cbor.encoded
        }
        if let extensions { out += extensions.encoded }
        return out
    }
}
