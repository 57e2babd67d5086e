import Crypto
import Foundation
import Testing

@testable import AccessBackend

/// Issue 34 item 2: `TokenDigest` computes HMAC-SHA256 over two SHA-256 states keyed once. Every stored digest
/// (sessions, codes, links) was made by `HMAC<SHA256>`, so it must give the very same digests.
@Suite struct TokenDigestTests {
    static let keyLengths = [0, 1, 16, 32, 63, 64, 65, 100, 200]
    static let secrets = [
        "", "0", "123456", "at_" + String(repeating: "x", count: 43), String(repeating: "long secret ", count: 20),
        "é漢字🙂", "with\u{0}nul",
    ]
    static let contexts = ["", "email:qa@example.com", String(repeating: "c", count: 64), "ü"]

    @Test(arguments: keyLengths)
    func theSameDigestsAsHMAC(keyLength: Int) {
        let key = SymmetricKey(data: (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let digest = TokenDigest(key: key)
        for secret in Self.secrets {
            for context in Self.contexts {
                let expected = HMAC<SHA256>.authenticationCode(
                    for: Array(context.utf8) + [0] + Array(secret.utf8), using: key)
                #expect(digest(secret, context: context) == Secrets.hex(expected), "\(keyLength) \(secret) \(context)")
            }
        }
    }

    /// Each digest starts from copies of the keyed states: one digest leaves nothing behind for the next.
    @Test func digestsDoNotDependOnWhatCameBefore() {
        let digest = TokenDigest(key: SymmetricKey(size: .bits256))
        let first = digest("at_abc")
        _ = digest("something else", context: "x")
        #expect(digest("at_abc") == first)
        #expect(digest("at_abd") != first)
    }

    @Test func hexOfABufferIsHexOfTheBytes() {
        let bytes: [UInt8] = [0x00, 0x01, 0x7f, 0x80, 0xab, 0xff, 0x10]
        let fromBuffer = bytes.withUnsafeBytes { Secrets.hex($0) }
        #expect(fromBuffer == "00017f80abff10")
        #expect(fromBuffer == Secrets.hex(bytes.lazy.map { $0 }))
        #expect([UInt8]().withUnsafeBytes { Secrets.hex($0) } == "")
        let every = (0...255).map { UInt8($0) }
        let expected = every.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(every.withUnsafeBytes { Secrets.hex($0) } == expected)
    }
}
