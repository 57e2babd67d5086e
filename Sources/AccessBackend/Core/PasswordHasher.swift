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

    /// The bcrypt cost of a well-formed `bcrypt-sha256$` string, read from its text (no hashing): what a
    /// scenario's precomputed hash is checked with. nil for anything else.
    static func cost(ofStored stored: String) -> Int? {
        guard stored.hasPrefix(scheme) else { return nil }
        // "$2b$10$" then 22 characters of salt and 31 of hash, in bcrypt's own base64 alphabet.
        let bcrypt = Array(stored.utf8.dropFirst(scheme.utf8.count))
        let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        guard bcrypt.count == 60, bcrypt.starts(with: Array("$2b$".utf8)), bcrypt[6] == UInt8(ascii: "$"),
            bcrypt[7...].allSatisfy(alphabet.contains),
            let cost = Int(String(decoding: bcrypt[4..<6], as: UTF8.self)), (4...31).contains(cost)
        else { return nil }
        return cost
    }

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
