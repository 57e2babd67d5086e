import Crypto
import Foundation

/// Authenticator-app codes (RFC 6238 over RFC 4226): HMAC-SHA-1, 6 digits, 30 s steps, as every
/// authenticator app reads an `otpauth://totp` URI by default. The backend verifies with it, the app's
/// `accessdeck totp` prints with it, and the admin API's "current code" comes from it: one definition.
public struct TOTP: Sendable, Equatable {
    public static let digits = 6
    public static let period: TimeInterval = 30
    /// Steps either side of now that still verify: a phone's clock a little off must not lock anyone out.
    public static let driftSteps: Int64 = 1
    /// RFC 4226 asks for at least 128 bits; 160 is what the RFC's HMAC-SHA-1 key size suggests.
    public static let secretByteCount = 20

    public let secret: [UInt8]

    public init(secret: [UInt8]) { self.secret = secret }

    /// A secret as authenticator apps show and take it: Base32, case and spaces ignored.
    public init?(base32: String) {
        guard let bytes = Base32.decode(base32), !bytes.isEmpty else { return nil }
        self.secret = bytes
    }

    public static func random() -> TOTP {
        var generator = SystemRandomNumberGenerator()
        return TOTP(secret: (0..<secretByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    public var base32: String { Base32.encode(secret) }

    /// The secret in groups of four, for typing it into an app by hand.
    public var base32Grouped: String {
        let characters = Array(base32)
        return stride(from: 0, to: characters.count, by: 4)
            .map { String(characters[$0..<min($0 + 4, characters.count)]) }
            .joined(separator: " ")
    }

    public static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / period).rounded(.down))
    }

    /// Whole seconds until the code shown at `date` changes (1…30).
    public static func secondsLeft(at date: Date) -> Int {
        let elapsed = date.timeIntervalSince1970 - Double(step(at: date)) * period
        return max(1, Int((period - elapsed).rounded(.up)))
    }

    public func code(at date: Date) -> String { code(atStep: Self.step(at: date)) }

    public func code(atStep step: Int64, digits: Int = TOTP.digits) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        // RFC 4226 §5.3, dynamic truncation.
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The step, within `driftSteps` of `date`, whose code `code` is: nearest first. nil for a code of
    /// none of them. Every candidate is compared in full, so the time taken says nothing about the code.
    public func matchingStep(of code: String, at date: Date) -> Int64? {
        let now = Self.step(at: date)
        let candidates = [now, now - Self.driftSteps, now + Self.driftSteps]
        var found: Int64?
        for step in candidates where Self.constantTimeEqual(self.code(atStep: step), code) && found == nil {
            found = step
        }
        return found
    }

    /// The `otpauth://` URI an authenticator app scans (Key Uri Format): the label is issuer:account.
    public func uri(issuer: String, account: String) -> String {
        let label = Self.escaped("\(issuer):\(account)")
        return "otpauth://totp/\(label)?secret=\(base32)&issuer=\(Self.escaped(issuer))"
            + "&algorithm=SHA1&digits=\(Self.digits)&period=\(Int(Self.period))"
    }

    private static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    private static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

/// RFC 4648 Base32 (A–Z, 2–7), the alphabet of `otpauth://` secrets. Encoding leaves out `=` padding as
/// authenticator apps do; decoding takes it, lower case and spaces.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// nil for a character outside the alphabet, or for leftover bits that are not zero.
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xff))
                bits -= 8
            }
        }
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }
}
