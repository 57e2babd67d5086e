/// The part of CBOR (RFC 8949) that WebAuthn uses: integers, byte and text strings, arrays, maps,
/// booleans and null, all of definite length. Attestation objects, authenticator data's public key
/// and extensions are written in it. No package in our sources reads CBOR, so this is ours: small,
/// and strict, because what it reads comes from a client.
public enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    /// -1 - `n`, as major type 1 writes it (so -1 is `.negative(0)`).
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Pairs in the order they were read; `CBORDecoder` refuses a key written twice.
    case map([Pair])
    case bool(Bool)
    case null

    public struct Pair: Equatable, Sendable {
        public var key: CBOR
        public var value: CBOR
        public init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// An integer that fits in an `Int` (COSE labels and algorithm numbers are small).
    public static func int(_ value: Int) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    public var intValue: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -Int(value) - 1 : nil
        default: nil
        }
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    public var textValue: String? {
        if case .text(let text) = self { text } else { nil }
    }

    public var mapValue: [Pair]? {
        if case .map(let pairs) = self { pairs } else { nil }
    }

    /// The value under an integer key (COSE's labels), or nil when this is not a map or has no such key.
    public subscript(label label: Int) -> CBOR? {
        mapValue?.first { $0.key == .int(label) }?.value
    }

    /// The value under a text key (the attestation object's "fmt", "attStmt", "authData").
    public subscript(key key: String) -> CBOR? {
        mapValue?.first { $0.key == .text(key) }?.value
    }
}

public enum CBORError: Error, Equatable, Sendable {
    /// The input ends inside an item.
    case truncated(at: Int)
    /// Bytes follow the item where none may.
    case trailingBytes(at: Int)
    /// Indefinite lengths, tags, floats, `undefined` and other simple values: outside WebAuthn's subset.
    case unsupported(at: Int)
    /// A length or integer written longer than it needs (CTAP2's canonical form forbids it).
    case nonMinimal(at: Int)
    case duplicateKey(at: Int)
    case invalidText(at: Int)
    /// Nested deeper than `CBORDecoder.maximumDepth`.
    case tooDeep(at: Int)
}

/// Reads one item strictly: definite lengths only, minimal encodings, no duplicate map keys, valid
/// UTF-8, a bounded depth, and lengths checked against the bytes left before anything is allocated.
public struct CBORDecoder {
    /// WebAuthn's deepest structure (an attestation statement's certificate array) is three levels down.
    public static let maximumDepth = 16

    private let bytes: [UInt8]
    private var position: Int

    /// The whole input is one item: a byte after it is an error.
    public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        let (item, end) = try decodePrefix(bytes, from: 0)
        guard end == bytes.count else { throw .trailingBytes(at: end) }
        return item
    }

    /// One item starting at `offset`, and where it ends (authenticator data puts the public key and the
    /// extensions one after the other, with no length in front).
    public static func decodePrefix(_ bytes: [UInt8], from offset: Int) throws(CBORError) -> (CBOR, end: Int) {
        var decoder = CBORDecoder(bytes: bytes, position: offset)
        let item = try decoder.item(depth: 0)
        return (item, decoder.position)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBOR {
        let start = position
        guard depth <= Self.maximumDepth else { throw .tooDeep(at: start) }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 { return try simple(info, at: start) }
        guard info != 31 else { throw .unsupported(at: start) }  // indefinite length
        let argument = try self.argument(info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument, at: start))
        case 3:
            let raw = try take(argument, at: start)
            guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidText(at: start) }
            return .text(text)
        case 4:
            let count = try count(argument, at: start)
            var items: [CBOR] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try count(argument, at: start)
            var pairs: [CBOR.Pair] = []
            pairs.reserveCapacity(count)
            for _ in 0..<count {
                let keyStart = position
                let key = try item(depth: depth + 1)
                guard !pairs.contains(where: { $0.key == key }) else { throw .duplicateKey(at: keyStart) }
                pairs.append(CBOR.Pair(key, try item(depth: depth + 1)))
            }
            return .map(pairs)
        default:  // 6: tags
            throw .unsupported(at: start)
        }
    }

    private mutating func simple(_ info: UInt8, at start: Int) throws(CBORError) -> CBOR {
        switch info {
        case 20: .bool(false)
        case 21: .bool(true)
        case 22: .null
        default: throw .unsupported(at: start)  // undefined, other simple values, floats, break
        }
    }

    /// The number after the initial byte: a length, a count or the integer itself, written in as few
    /// bytes as it needs.
    private mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            let width = 1 << Int(info - 24)
            var value: UInt64 = 0
            for _ in 0..<width { value = value << 8 | UInt64(try byte()) }
            let smallest: UInt64 = width == 1 ? 24 : 1 << (4 * width)
            guard value >= smallest else { throw .nonMinimal(at: start) }
            return value
        default: throw .unsupported(at: start)  // 28–30 are reserved
        }
    }

    /// A count of items, each at least one byte: more than the bytes left cannot be true.
    private func count(_ argument: UInt64, at start: Int) throws(CBORError) -> Int {
        guard argument <= UInt64(bytes.count - position) else { throw .truncated(at: start) }
        return Int(argument)
    }

    private mutating func take(_ length: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
        guard length <= UInt64(bytes.count - position) else { throw .truncated(at: start) }
        let end = position + Int(length)
        defer { position = end }
        return Array(bytes[position..<end])
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard position < bytes.count else { throw .truncated(at: position) }
        defer { position += 1 }
        return bytes[position]
    }
}

extension CBOR {
    /// CTAP2's canonical form: the shortest encodings, and a map's keys in order of their encoding
    /// (shorter first, then byte by byte), so the same value always gives the same bytes.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let value): Self.head(0, value, into: &out)
        case .negative(let value): Self.head(1, value, into: &out)
        case .bytes(let bytes):
            Self.head(2, UInt64(bytes.count), into: &out)
            out += bytes
        case .text(let text):
            Self.head(3, UInt64(text.utf8.count), into: &out)
            out += text.utf8
        case .array(let items):
            Self.head(4, UInt64(items.count), into: &out)
            for item in items { item.write(into: &out) }
        case .map(let pairs):
            Self.head(5, UInt64(pairs.count), into: &out)
            let sorted = pairs.map { ($0.key.encoded, $0.value) }.sorted { left, right in
                left.0.count != right.0.count
                    ? left.0.count < right.0.count : left.0.lexicographicallyPrecedes(right.0)
            }
            for (key, value) in sorted {
                out += key
                value.write(into: &out)
            }
        case .bool(let value): out.append(value ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xff: out += [type | 24, UInt8(argument)]
        case 0x100...0xffff:
            out.append(type | 25)
            out += bigEndian(argument, width: 2)
        case 0x1_0000...0xffff_ffff:
            out.append(type | 26)
            out += bigEndian(argument, width: 4)
        default:
            out.append(type | 27)
            out += bigEndian(argument, width: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
