import Testing

@testable import AccessCore

/// The CBOR subset WebAuthn uses, against RFC 8949 Appendix A, and every malformed input refused with
/// its reason rather than read loosely or crashing.
@Suite struct CBORTests {
    static let vectors: [(String, CBOR)] = [
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)),
        ("1818", .unsigned(24)), ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(.max)), ("20", .int(-1)), ("29", .int(-10)), ("3863", .int(-100)),
        ("3903e7", .int(-1000)), ("3bffffffffffffffff", .negative(.max)), ("40", .bytes([])),
        ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")),
        ("6449455446", .text("IETF")), ("62c3bc", .text("ü")), ("63e6b0b4", .text("水")), ("80", .array([])),
        ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        (
            "8301820203820405",
            .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])
        ),
        ("a0", .map([])), ("a201020304", .map([.init(.unsigned(1), .unsigned(2)), .init(.unsigned(3), .unsigned(4))])),
        (
            "a26161016162820203",
            .map([.init(.text("a"), .unsigned(1)), .init(.text("b"), .array([.unsigned(2), .unsigned(3)]))])
        ),
        ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
    ]

    @Test(arguments: vectors.indices)
    func readsAndWritesTheRFCsExamples(index: Int) throws {
        let (hex, value) = Self.vectors[index]
        #expect(try CBORDecoder.decode(bytes(hex)) == value)
        #expect(value.encoded == bytes(hex))
    }

    @Test(arguments: vectors.indices)
    func everyCutOfAnItemIsTruncated(index: Int) {
        let whole = bytes(Self.vectors[index].0)
        for length in 0..<whole.count {
            #expect(throws: CBORError.self) { try CBORDecoder.decode(Array(whole[0..<length])) }
        }
    }

    @Test func aByteAfterTheItemIsRefusedButAPrefixReadSaysWhereItEnded() throws {
        #expect(throws: CBORError.trailingBytes(at: 1)) { try CBORDecoder.decode([0x01, 0x02]) }
        let (item, end) = try CBORDecoder.decodePrefix([0xff, 0x62, 0x68, 0x69, 0x00], from: 1)
        #expect(item == .text("hi") && end == 4)
    }

    @Test(arguments: [
        ("5f", "indefinite bytes"), ("7f", "indefinite text"), ("9f", "indefinite array"), ("bf", "indefinite map"),
        ("c001", "a tag"), ("f7", "undefined"), ("f0", "a simple value"), ("f820", "a one-byte simple value"),
        ("f93c00", "a half float"), ("fa47c35000", "a float"), ("fb3ff199999999999a", "a double"), ("ff", "break"),
        ("1c", "reserved 28"), ("1d", "reserved 29"), ("1e", "reserved 30"),
    ])
    func outsideTheSubsetIsUnsupported(hex: String, what: String) {
        #expect(throws: CBORError.unsupported(at: 0), "\(what)") { try CBORDecoder.decode(bytes(hex)) }
    }

    @Test(arguments: ["1817", "190017", "1900ff", "1a0000ffff", "1b00000000ffffffff", "5801ff", "3817"])
    func aLongerEncodingThanNeededIsRefused(hex: String) {
        #expect(throws: CBORError.nonMinimal(at: 0)) { try CBORDecoder.decode(bytes(hex)) }
    }

    @Test func aKeyWrittenTwiceIsRefused() {
        #expect(throws: CBORError.duplicateKey(at: 3)) { try CBORDecoder.decode(bytes("a2010201 03")) }
        #expect(throws: CBORError.duplicateKey(at: 4)) { try CBORDecoder.decode(bytes("a2616101616102")) }
    }

    @Test func textThatIsNotUTF8IsRefused() {
        #expect(throws: CBORError.invalidText(at: 0)) { try CBORDecoder.decode(bytes("62c328")) }
        #expect(throws: CBORError.invalidText(at: 0)) { try CBORDecoder.decode(bytes("63eda080")) }  // a surrogate
    }

    @Test func nestingPastTheLimitIsRefused() throws {
        let limit = CBORDecoder.maximumDepth
        let deepest = Array(repeating: UInt8(0x81), count: limit) + [0x00]
        #expect(throws: Never.self) { try CBORDecoder.decode(deepest) }
        #expect(throws: CBORError.tooDeep(at: limit + 1)) {
            try CBORDecoder.decode(Array(repeating: UInt8(0x81), count: limit + 1) + [0x00])
        }
    }

    @Test func aLengthPastTheInputIsTruncatedWithoutAllocatingIt() {
        #expect(throws: CBORError.truncated(at: 0)) { try CBORDecoder.decode(bytes("5bffffffffffffffff")) }
        #expect(throws: CBORError.truncated(at: 0)) { try CBORDecoder.decode(bytes("9bffffffffffffffff")) }
        #expect(throws: CBORError.truncated(at: 0)) { try CBORDecoder.decode(bytes("bb7fffffffffffffff")) }
    }

    @Test func aMapIsWrittenWithItsKeysInCanonicalOrder() {
        let map = CBOR.map([
            .init(.text("aa"), .null), .init(.int(-1), .null), .init(.text("b"), .null), .init(.unsigned(10), .null),
            .init(.unsigned(100), .null),
        ])
        // Shorter encodings first, then byte by byte: 10 (0a), -1 (20), 100 (1864), "b" (6162), "aa" (626161).
        #expect(map.encoded == bytes("a5 0af6 20f6 1864f6 6162f6 626161f6"))
    }

    @Test func labelsAndKeysReadFromAMap() throws {
        let map = try CBORDecoder.decode(bytes("a3 0102 2063616263 6161 f5"))
        #expect(map[label: 1] == .unsigned(2))
        #expect(map[label: -1]?.textValue == "abc")
        #expect(map[key: "a"] == .bool(true))
        #expect(map[label: 7] == nil && CBOR.unsigned(1)[label: 1] == nil)
        #expect(CBOR.int(-7).intValue == -7 && CBOR.negative(.max).intValue == nil)
    }
}

/// Hex with spaces allowed, for readable vectors.
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}
