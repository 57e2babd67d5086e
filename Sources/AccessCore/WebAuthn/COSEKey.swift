import Crypto

/// The algorithms a credential may use, by their COSE numbers: ES256 (P-256 with SHA-256) is what every
/// authenticator offers; EdDSA (Ed25519) where it is offered.
public enum COSEAlgorithm: Int, Sendable, CaseIterable {
    case es256 = -7
    case edDSA = -8
}

/// A credential's public key as COSE (RFC 9052/9053) writes it, read strictly: the key type, the
/// algorithm and the curve must agree, coordinates are exactly 32 bytes, and a point off the curve is
/// refused by swift-crypto when the key is built.
public enum COSEKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)

    private enum Label {
        static let keyType = 1
        static let algorithm = 3
        static let curve = -1
        static let x = -2
        static let y = -3
    }

    private enum KeyType {
        static let okp = 1
        static let ec2 = 2
    }

    private enum Curve {
        static let p256 = 1
        static let ed25519 = 6
    }

    public var algorithm: COSEAlgorithm {
        switch self {
        case .es256: .es256
        case .ed25519: .edDSA
        }
    }

    public init(cbor: CBOR) throws(WebAuthnError) {
        guard cbor.mapValue != nil else { throw .malformed("the public key is not a COSE map") }
        guard let algorithmNumber = cbor[label: Label.algorithm]?.intValue,
            let keyType = cbor[label: Label.keyType]?.intValue
        else { throw .malformed("the public key has no key type or algorithm") }
        guard let algorithm = COSEAlgorithm(rawValue: algorithmNumber) else {
            throw .unsupportedAlgorithm(algorithmNumber)
        }
        let curve = cbor[label: Label.curve]?.intValue
        let x = cbor[label: Label.x]?.bytesValue
        switch algorithm {
        case .es256:
            guard keyType == KeyType.ec2, curve == Curve.p256, let x, x.count == 32,
                let y = cbor[label: Label.y]?.bytesValue, y.count == 32,
                let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
            else { throw .malformed("the ES256 public key is not a P-256 point") }
            self = .es256(key)
        case .edDSA:
            guard keyType == KeyType.okp, curve == Curve.ed25519, let x, x.count == 32,
                cbor[label: Label.y] == nil,
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
            else { throw .malformed("the EdDSA public key is not an Ed25519 key") }
            self = .ed25519(key)
        }
    }

    public var cbor: CBOR {
        switch self {
        case .es256(let key):
            let raw = [UInt8](key.rawRepresentation)
            return .map([
                .init(.int(Label.keyType), .int(KeyType.ec2)), .init(.int(Label.algorithm), .int(-7)),
                .init(.int(Label.curve), .int(Curve.p256)), .init(.int(Label.x), .bytes(Array(raw[0..<32]))),
                .init(.int(Label.y), .bytes(Array(raw[32..<64]))),
            ])
        case .ed25519(let key):
            return .map([
                .init(.int(Label.keyType), .int(KeyType.okp)), .init(.int(Label.algorithm), .int(-8)),
                .init(.int(Label.curve), .int(Curve.ed25519)),
                .init(.int(Label.x), .bytes([UInt8](key.rawRepresentation))),
            ])
        }
    }

    /// ES256 signatures come DER-encoded (as WebAuthn sends them), EdDSA's as 64 raw bytes.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        }
    }
}

extension COSEKey: Equatable {
    public static func == (left: COSEKey, right: COSEKey) -> Bool {
        switch (left, right) {
        case (.es256(let a), .es256(let b)): a.rawRepresentation == b.rawRepresentation
        case (.ed25519(let a), .ed25519(let b)): a.rawRepresentation == b.rawRepresentation
        default: false
        }
    }
}
