import AccessCore
import Foundation
import Testing

@Suite struct TOTPTests {
    /// RFC 6238 Appendix B's SHA-1 key: the ASCII of "12345678901234567890".
    let rfcKey = TOTP(secret: Array("12345678901234567890".utf8))

    @Test(
        arguments: [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ] as [(Int64, String)])
    func theRFCsPublishedVectors(seconds: Int64, expected: String) {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        #expect(rfcKey.code(atStep: TOTP.step(at: date), digits: 8) == expected)
        // Six digits are the same number's last six.
        #expect(rfcKey.code(at: date) == String(expected.suffix(6)))
    }

    @Test func oneStepOfDriftEitherSideVerifiesAndTwoDoNot() {
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        let step = TOTP.step(at: now)
        #expect(rfcKey.matchingStep(of: rfcKey.code(atStep: step), at: now) == step)
        #expect(rfcKey.matchingStep(of: rfcKey.code(atStep: step - 1), at: now) == step - 1)
        #expect(rfcKey.matchingStep(of: rfcKey.code(atStep: step + 1), at: now) == step + 1)
        #expect(rfcKey.matchingStep(of: rfcKey.code(atStep: step - 2), at: now) == nil)
        #expect(rfcKey.matchingStep(of: rfcKey.code(atStep: step + 2), at: now) == nil)
        #expect(rfcKey.matchingStep(of: "12345", at: now) == nil)
    }

    @Test func secondsLeftCountsDownWithinAStep() {
        #expect(TOTP.secondsLeft(at: Date(timeIntervalSince1970: 60)) == 30)
        #expect(TOTP.secondsLeft(at: Date(timeIntervalSince1970: 61)) == 29)
        #expect(TOTP.secondsLeft(at: Date(timeIntervalSince1970: 89.5)) == 1)
    }

    @Test func base32FollowsRFC4648() {
        // RFC 4648 §10 vectors, without padding.
        let vectors = [
            ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"),
            ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base32.decode("mzxw 6ytb oi======") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW1") == nil)
        #expect(Base32.decode("MY") == Array("f".utf8))
        #expect(Base32.decode("MZ") == nil)  // leftover bits that are not zero
    }

    @Test func aSecretReadsBackFromItsGroupedForm() throws {
        let totp = TOTP.random()
        #expect(totp.secret.count == TOTP.secretByteCount)
        #expect(totp.base32Grouped.split(separator: " ").allSatisfy { $0.count <= 4 })
        #expect(TOTP(base32: totp.base32Grouped) == totp)
        #expect(TOTP(base32: "not base32!") == nil)
    }

    @Test func theURIIsTheKeyURIFormat() {
        let uri = TOTP(secret: Array("12345678901234567890".utf8)).uri(issuer: "AccessDeck", account: "ana@example.com")
        #expect(
            uri == "otpauth://totp/AccessDeck%3Aana@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                + "&issuer=AccessDeck&algorithm=SHA1&digits=6&period=30")
    }
}
