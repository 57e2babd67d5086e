import Crypto
import Foundation
import HummingbirdBcrypt

/// How passwords are stored: bcrypt, in a self-describing string that carries its scheme and cost,
/// so the cost can rise later without breaking stored hashes.
///
/// `bcrypt-sha256$<bcrypt of base64(SHA-256(password))>`: bcrypt reads at most 72 bytes, and a
/// password may be 128 characters (up to 512 bytes of UTF-8), so it hashes a fixed-size digest of
/// the whole password instead (passlib's bcrypt_sha256 does the same).
enum PasswordHasher {
    static let scheme = "bcrypt-sha256$"
    /// OWASP's floor for bcrypt; about 60 ms a hash on this machine's cores.
    static let cost: UInt8 = 10

    static func hash(_ password: String) -> String {
        scheme + Bcrypt.hash(prehash(password), cost: cost)
    }

    /// Checks `password` against what is stored. Rows written before bcrypt hold 2,000 rounds of
    /// salted SHA-256 and a salt; they still verify, and `needsUpgrade` tells the caller to rehash.
    static func verify(_ password: String, stored: String, legacySalt: String?) -> Bool {
        if stored.hasPrefix(scheme) {
            return Bcrypt.verify(prehash(password), hash: String(stored.dropFirst(scheme.count)))
        }
        guard let legacySalt else { return false }
        return Secrets.constantTimeEquals(legacyHash(password, salt: legacySalt), stored)
    }

    static func needsUpgrade(_ stored: String) -> Bool { !stored.hasPrefix(scheme) }

    private static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    /// The scheme before bcrypt, kept only to verify rows that still hold it.
    private static func legacyHash(_ password: String, salt: String) -> String {
        var digest = Data((salt + "\u{0}" + password).utf8)
        for _ in 0..<2_000 {
            digest = Data(SHA256.hash(data: digest))
        }
        return Secrets.hex(digest)
    }
}
