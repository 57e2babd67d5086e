import AccessCore
import Crypto
import Foundation

/// Random secrets and their hashes. Everything secret the backend hands out comes from here, so the
/// "CSPRNG, stored hashed, compared in constant time" rule lives in one place.
enum Secrets {
    /// 256 bits from the system CSPRNG, URL-safe.
    static func token(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64 = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return prefix + base64
    }

    /// Six digits, uniform (no modulo bias: `random(in:)` rejects out-of-range draws).
    static func otpCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = Int.random(in: 0...999_999, using: &generator)
        return String(format: "%06d", value)
    }

    /// A two-factor recovery code (issue 31): `xxxxx-xxxxx` from Base32's lowercase alphabet, 50 bits.
    static func recoveryCode() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var generator = SystemRandomNumberGenerator()
        let half = TwoFactorLimits.recoveryCodeHalfLength
        let characters = (0..<(2 * half)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return String(characters[..<half]) + "-" + String(characters[half...])
    }

    /// Short public identifiers (request ids); not secret, but still unguessable.
    static func identifier(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<12).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + hex(bytes)
    }

    /// `String(format:)` per byte costs more than the SHA-256 itself on Linux; this runs on every request.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `hex` of contiguous bytes, written straight into the string's storage.
    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: 2 * bytes.count) { out in
            // Arithmetic rather than a table: an array read is a bounds check and a retain.
            @inline(__always) func digit(_ nibble: UInt8) -> UInt8 {
                nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
            }
            for index in 0..<bytes.count {
                let byte = bytes[index]
                out[2 * index] = digit(byte >> 4)
                out[2 * index + 1] = digit(byte & 0x0f)
            }
            return 2 * bytes.count
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Time does not depend on where the first difference is.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            let left = index < x.count ? x[index] : 0
            let right = index < y.count ? y[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}

/// How codes and tokens are stored: HMAC-SHA256 under the store's key (`StoreKey`, kept outside the
/// database). A plain hash of a six-digit code falls to a brute force in under a second; without the key
/// there is nothing to try.
struct TokenDigest: Sendable {
    /// HMAC-SHA256 (RFC 2104) as two SHA-256 states with the padded key already absorbed: the inner one
    /// (key ^ ipad) and the outer one (key ^ opad). Keying costs two SHA-256 blocks, and every authenticated
    /// request digests its token, so each digest starts from copies of these. Over `SHA256` itself rather than
    /// `HMAC<SHA256>`: the generic HMAC's `update` and `finalize` went through `DataProtocol` and the digest's
    /// generic `withUnsafeBytes`, half of a digest's 13 K instructions (issue 34 item 2). `TokenDigestTests`
    /// holds it to `HMAC<SHA256>`.
    private let inner: SHA256
    private let outer: SHA256
    private static let separator: [UInt8] = [0]

    init(key: SymmetricKey) {
        var padded = [UInt8](repeating: 0, count: SHA256.blockByteCount)
        key.withUnsafeBytes { key in
            if key.count > SHA256.blockByteCount {
                SHA256.hash(data: key).withUnsafeBytes { padded.replaceSubrange(0..<$0.count, with: $0) }
            } else {
                padded.replaceSubrange(0..<key.count, with: key)
            }
        }
        var inner = SHA256()
        inner.update(data: padded.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(data: padded.map { $0 ^ 0x5c })
        (self.inner, self.outer) = (inner, outer)
    }

    /// `context` binds a code to its request, so one code's digest says nothing about another's.
    func callAsFunction(_ secret: String, context: String = "") -> String {
        var inner = self.inner
        // One `update` over context, separator and secret put together on the stack: each call into the hash
        // cost more than the bytes it hashed. The same bytes in the same order: the same digest as three updates.
        var context = context
        var secret = secret
        context.withUTF8 { context in
            secret.withUTF8 { secret in
                let count = context.count + Self.separator.count + secret.count
                withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { joined in
                    joined.copyMemory(from: UnsafeRawBufferPointer(context))
                    joined[context.count] = Self.separator[0]
                    UnsafeMutableRawBufferPointer(rebasing: joined[(context.count + 1)...])
                        .copyMemory(from: UnsafeRawBufferPointer(secret))
                    inner.update(bufferPointer: UnsafeRawBufferPointer(joined))
                }
            }
        }
        var outer = self.outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize().withUnsafeBytes { Secrets.hex($0) }
    }
}

/// AES-256-GCM under a key derived from the store's key: what the backend keeps of a secret it must give
/// back later (the outbox's codes and links). A copy of the database without the key file reads nothing.
struct Sealer: Sendable {
    private let key: SymmetricKey

    /// `purpose` separates the keys of different uses, so one's sealed values never open as another's.
    init(storeKey: SymmetricKey, purpose: String) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: storeKey, info: Data("accessdeck sealer: \(purpose)".utf8), outputByteCount: 32)
    }

    /// Nonce, ciphertext and tag in one blob, a fresh random nonce each time.
    func seal(_ plaintext: Data) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: key).combined else {
            throw StoreError("AES-GCM gave no combined form")
        }
        return combined
    }

    /// nil for a blob this key did not seal, or one altered since.
    func open(_ sealed: Data) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? AES.GCM.open(box, using: key)
    }
}
