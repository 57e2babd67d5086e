import Foundation
import GRDB

/// A row of `passkeys` (issue 53): one WebAuthn credential of an account, known by its credential id (base64url),
/// with its COSE public key and the signature counter it last reported.
struct PasskeyRecord: Record {
    static let databaseTableName = "passkeys"

    var credentialId: String
    var userId: String
    /// The COSE key as the attestation carried it (`COSEKey(cbor:)` reads it back).
    var publicKey: Data
    var signCount: Int64
    var name: String
    var createdAt: Double
    var lastUsedAt: Double?
    var deviceName: String?
    var attestationFormat: String
    /// When its counter went back (a cloned authenticator): refused from then on, and no longer a sign-in method.
    var flaggedAt: Double?
}

/// A row of `passkey_challenges`: the bytes a ceremony's answer must sign, once, before `expiresAt`.
struct PasskeyChallengeRecord: Record {
    static let databaseTableName = "passkey_challenges"

    enum Purpose: String, Codable, DatabaseValueConvertible, Sendable {
        case register
        case signIn = "sign_in"
        case reauth
    }

    var id: String
    var challenge: Data
    var purpose: Purpose
    /// The account a registration or re-auth is for; nil for a sign-in (a discoverable credential names it).
    var userId: String?
    var expiresAt: Double
    var used = false
}
