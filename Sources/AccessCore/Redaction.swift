/// What a journal may show of a request: secrets replaced by "[redacted]". One place for the backend's
/// journal and the app's own, so both hide the same names.
public enum Redaction {
    public static let placeholder = "[redacted]"

    /// Headers that carry credentials: every one the contract declares (its security schemes: Authorization,
    /// X-Reauth-Token, X-Admin-Token; `RedactionTests` walks openapi.yaml so a new one cannot be missed),
    /// and besides these any header whose name says it holds one (`secretHeaderWords`).
    public static let secretHeaders: Set<String> = [
        "authorization", "cookie", "set-cookie", "x-admin-token", "x-reauth-token",
    ]

    /// A header whose name contains one of these is a credential, declared or not (X-Api-Key,
    /// Proxy-Authorization, X-CSRF-Token…): a value hidden by mistake costs less than a token shown.
    public static let secretHeaderWords = ["token", "secret", "key", "cookie", "authorization"]

    /// JSON members (at any depth) and query parameters whose values are secrets.
    public static let secretNames: Set<String> = [
        "password", "current_password", "new_password", "code", "token", "access_token", "refresh_token",
        "reauth_token", "id_token", "link", "url",
        // Two-factor (issue 31): the authenticator's secret, its URI (which holds the secret) and recovery codes.
        "secret", "otpauth_uri", "recovery_code", "recovery_codes",
        // The outbox's message as the customer got it (issue 49 item 4): it holds the code or the link.
        "text",
        // A scenario's passkey handed to this device (issue 53): the authenticator's private key.
        "private_key",
    ]

    public static func headerValue(name: String, value: String) -> String {
        isSecretHeader(name) ? placeholder : value
    }

    public static func isSecretHeader(_ name: String) -> Bool {
        // Over the bytes against names made once: asked of every header of every request, and going through
        // string views, sets and closures cost 3 K instructions a header (issue 34 item 2).
        var bytes = name
        let asASCII = bytes.withUTF8 { bytes -> Bool? in
            guard ASCIIMatch.isASCII(bytes) else { return nil }
            return secretHeaderBytes.contains { ASCIIMatch.equalIgnoringCase(bytes, $0) }
                || secretHeaderWordBytes.contains { ASCIIMatch.containsIgnoringCase(bytes, $0) }
        }
        if let asASCII { return asASCII }
        // Non-ASCII names take Unicode's lowercasing.
        let lowered = name.lowercased()
        return secretHeaders.contains(lowered) || secretHeaderWords.contains { lowered.contains($0) }
    }

    private static let secretHeaderBytes = secretHeaders.map { Array($0.utf8) }
    private static let secretHeaderWordBytes = secretHeaderWords.map { Array($0.utf8) }

    /// `a=1&code=123456` → `a=1&code=[redacted]`. Names are compared decoded and case-insensitively, so
    /// `Code` or `c%6Fde` hide their value too.
    public static func query(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decoded = (String(name).replacingPlusWithSpace.removingPercentEncodingSafely ?? String(name))
            return isSecret(decoded) ? "\(name)=\(placeholder)" : String(pair)
        }.joined(separator: "&")
    }

    /// The JSON text with every secret member's value replaced, whatever the value (string, number, object);
    /// everything else is kept as written. Text that is not JSON cannot be searched reliably, so none of it
    /// is kept.
    public static func json(_ text: String) -> String {
        json(Array(text.utf8)) ?? notJSON
    }

    public static let notJSON = "[not JSON]"

    /// Stops once `maxBytes` of output are written (the rest is neither read nor checked), so a large
    /// body costs no more than its first part. nil: not JSON.
    public static func json(_ bytes: some Collection<UInt8>, maxBytes: Int = .max) -> String? {
        jsonReportingCut(bytes, maxBytes: maxBytes)?.text
    }

    /// `json(_:maxBytes:)`, saying whether the text is the whole body (false: it reached `maxBytes` and
    /// was cut there, so it is no longer JSON).
    public static func jsonReportingCut(
        _ bytes: some Collection<UInt8>, maxBytes: Int
    ) -> (text: String, isWhole: Bool)? {
        // Scanned where the bytes lie when they are contiguous (a request's buffer): copying them into an array
        // first was a share of every journal entry.
        if let result = bytes.withContiguousStorageIfAvailable({ JSONRedactor.redact($0, maxBytes: maxBytes) }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer { JSONRedactor.redact($0, maxBytes: maxBytes) }
    }

    /// Whether a JSON member or query parameter of this name holds a secret.
    public static func isSecret(_ name: String) -> Bool {
        isOne(of: secretNames, name)
    }

    /// `isSecret` of a JSON member name as written, without making a string of it: asked of every member
    /// of every body the journal keeps, so only the names of the same length are compared.
    static func isSecret(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard ASCIIMatch.isASCII(name) else { return isSecret(String(decoding: name, as: UTF8.self)) }
        guard name.count < secretNamesByLength.count else { return false }
        return secretNamesByLength[name.count].contains { ASCIIMatch.equalIgnoringCase(name, $0) }
    }

    /// The secret names' bytes, at the index of their length.
    private static let secretNamesByLength: [[[UInt8]]] = {
        let names = secretNames.map { Array($0.utf8) }
        var byLength = [[[UInt8]]](repeating: [], count: (names.map(\.count).max() ?? 0) + 1)
        for name in names { byLength[name.count].append(name) }
        return byLength
    }()

    /// Case-insensitive membership for `query`'s decoded names; non-ASCII names take Unicode's lowercasing.
    private static func isOne(of lowercaseNames: Set<String>, _ name: String) -> Bool {
        var bytes = name
        let asASCII = bytes.withUTF8 { bytes -> Bool? in
            guard ASCIIMatch.isASCII(bytes) else { return nil }
            return lowercaseNames.contains { candidate in
                var candidate = candidate
                return candidate.withUTF8 { ASCIIMatch.equalIgnoringCase(bytes, $0) }
            }
        }
        return asASCII ?? lowercaseNames.contains(name.lowercased())
    }
}

/// Byte comparisons for names that are ASCII, ignoring ASCII case. The other side is lowercase.
private enum ASCIIMatch {
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    static func equalIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: [UInt8]) -> Bool {
        guard bytes.count == lower.count else { return false }
        for index in 0..<bytes.count where lowered(bytes[index]) != lower[index] { return false }
        return true
    }

    static func equalIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == lower.count else { return false }
        for index in 0..<bytes.count where lowered(bytes[index]) != lower[index] { return false }
        return true
    }

    static func containsIgnoringCase(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        candidates: for start in 0...(haystack.count - needle.count) where lowered(haystack[start]) == first {
            for offset in 1..<needle.count where lowered(haystack[start + offset]) != needle[offset] {
                continue candidates
            }
            return true
        }
        return false
    }
}

extension String {
    fileprivate var replacingPlusWithSpace: String {
        replacing("+", with: " ")
    }

    fileprivate var removingPercentEncodingSafely: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// A strict recursive-descent pass over JSON that notes where each secret member's value lies, then copies
/// the text through with "[redacted]" in those places. The output is the input but for those values, so the
/// pass only counts what it would write and the copy is made once, in runs, at the end: byte by byte appends
/// and a string for every member name were most of a journal entry's cost (issue 34 item 2).
private struct JSONRedactor {
    /// The redacted text and whether it is all of it, nil when `input` is not JSON.
    static func redact(_ input: UnsafeBufferPointer<UInt8>, maxBytes: Int) -> (text: String, isWhole: Bool)? {
        var scanner = JSONRedactor(input: input, maxBytes: maxBytes)
        return scanner.run()
    }

    let input: UnsafeBufferPointer<UInt8>
    let maxBytes: Int
    var position = 0
    /// How many bytes the output would hold so far.
    private var written = 0
    /// The input ranges of the secret values read so far, in order, each to be written as `redactedValue`.
    private var secrets: [Range<Int>] = []
    /// Inside a secret value: read, never written.
    private var suppressed = false
    private static let redactedValue = Array("\"\(Redaction.placeholder)\"".utf8)
    private static let errorName = Array("error".utf8)
    private static let codeName = Array("code".utf8)
    /// Deeper nesting is refused rather than risking the stack.
    private let maxDepth = 64

    init(input: UnsafeBufferPointer<UInt8>, maxBytes: Int) {
        self.input = input
        self.maxBytes = maxBytes
    }

    /// Output full: stop, keeping what was written (already redacted).
    private var full: Bool { !suppressed && written >= maxBytes }

    /// The redacted text and whether it is all of it (the limit not reached), nil when the input is not JSON.
    mutating func run() -> (text: String, isWhole: Bool)? {
        skipWhitespace()
        guard value(depth: 0) else { return nil }
        if !full {
            skipWhitespace()
            guard position == input.count else { return nil }
        }
        // Written straight into the string's storage, which repairs invalid UTF-8 as `String(decoding:)` does.
        let text = String(unsafeUninitializedCapacity: written) { output in
            var count = 0
            func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                UnsafeMutableBufferPointer(rebasing: output[count..<(count + bytes.count)]).initialize(from: bytes)
                count += bytes.count
            }
            var copied = 0
            for secret in secrets {
                append(UnsafeBufferPointer(rebasing: input[copied..<secret.lowerBound]))
                Self.redactedValue.withUnsafeBufferPointer { append($0) }
                copied = secret.upperBound
            }
            append(UnsafeBufferPointer(rebasing: input[copied..<position]))
            guard full else { return count }
            // Cut on a character boundary: never the middle of a multi-byte UTF-8 sequence.
            var end = min(count, maxBytes)
            while end > 0, end < count, output[end] & 0xC0 == 0x80 { end -= 1 }
            return end
        }
        return (text, !full)
    }

    /// `inError`: this is the value of a member named `error`.
    private mutating func value(depth: Int, inError: Bool = false) -> Bool {
        guard depth < maxDepth, position < input.count else { return false }
        switch input[position] {
        case UInt8(ascii: "{"): return object(depth: depth + 1, inError: inError)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string() != nil
        default: return scalar()
        }
    }

    private mutating func object(depth: Int, inError: Bool) -> Bool {
        emit()  // {
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            emit()
            return true
        }
        while !full {
            guard peek(UInt8(ascii: "\"")), let name = string() else { return false }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { return false }
            emit()
            skipWhitespace()
            // Judged as a decoder reads it: `pass\u0077ord` is `password` to the server, so it is here too.
            let raw = UnsafeBufferPointer(rebasing: input[name])
            let (isSecret, isErrorName) = Self.judge(
                raw.contains(UInt8(ascii: "\\")) ? Array(Self.unescaped(raw).utf8) : nil, raw, inError: inError)
            if isSecret {
                // Read to its end whatever the output limit, writing nothing of it (a secret inside a
                // secret leaves it unwritten too).
                let outer = suppressed
                let start = position
                suppressed = true
                let valid = value(depth: depth)
                suppressed = outer
                guard valid else { return false }
                if !suppressed {
                    secrets.append(start..<position)
                    written += Self.redactedValue.count
                }
            } else {
                guard value(depth: depth, inError: isErrorName) else { return false }
            }
            if full { return true }
            skipWhitespace()
            if peek(UInt8(ascii: "}")) {
                emit()
                return true
            }
            guard peek(UInt8(ascii: ",")) else { return false }
            emit()
            skipWhitespace()
        }
        return true
    }

    private mutating func array(depth: Int) -> Bool {
        emit()  // [
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            emit()
            return true
        }
        while !full {
            guard value(depth: depth) else { return false }
            if full { return true }
            skipWhitespace()
            if peek(UInt8(ascii: "]")) {
                emit()
                return true
            }
            guard peek(UInt8(ascii: ",")) else { return false }
            emit()
            skipWhitespace()
        }
        return true
    }

    /// Whether a member name (decoded when it holds escapes, else as written) is a secret, and whether it is
    /// `error`. An error's `code` ("rate_limited") says what went wrong and is no secret; every other `code` is.
    private static func judge(
        _ decoded: [UInt8]?, _ raw: UnsafeBufferPointer<UInt8>, inError: Bool
    ) -> (secret: Bool, error: Bool) {
        guard let decoded else { return judge(raw, inError: inError) }
        return decoded.withUnsafeBufferPointer { judge($0, inError: inError) }
    }

    private static func judge(_ name: UnsafeBufferPointer<UInt8>, inError: Bool) -> (secret: Bool, error: Bool) {
        let isErrorCode = inError && name.elementsEqual(codeName)
        return (!isErrorCode && Redaction.isSecret(name), name.elementsEqual(errorName))
    }

    /// Reads a string and returns where its raw content lies (escapes as written). Every escape is checked,
    /// so `unescaped` can read any name this returns.
    private mutating func string() -> Range<Int>? {
        let start = position
        emit()  // opening quote
        while position < input.count {
            // A run of bytes that stand for themselves, counted at once: most of every string.
            let run = position
            while position < input.count, Self.standsForItself(input[position]) { position += 1 }
            if !suppressed { written += position - run }
            guard position < input.count else { return nil }
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                emit()
                return (start + 1)..<(position - 1)
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                emit()
                guard position < input.count else { return nil }
                switch input[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    guard position + 4 < input.count,
                        input[(position + 1)...(position + 4)].allSatisfy({ hexValue($0) != nil })
                    else { return nil }
                    for _ in 0..<4 { emit() }
                default: return nil
                }
            }
            emit()
        }
        return nil
    }

    /// The string a JSON decoder makes of checked string content: escapes decoded, a surrogate pair joined,
    /// a lone surrogate read as U+FFFD.
    private static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var units: [UInt16] = []
        var bytes: [UInt8] = []
        func flushBytes() {
            units.append(contentsOf: String(decoding: bytes, as: UTF8.self).utf16)
            bytes.removeAll()
        }
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                flushBytes()
                units.append(raw[index..<(index + 4)].reduce(0) { $0 << 4 | UInt16(hexValue($1) ?? 0) })
                index += 4
            default: bytes.append(escape)  // " \ /
            }
        }
        flushBytes()
        return String(decoding: units, as: UTF16.self)
    }

    /// Inside a string: neither its end, an escape nor a control character.
    private static func standsForItself(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// A number, true, false or null: checked loosely (its characters), which is all a journal needs.
    private mutating func scalar() -> Bool {
        let start = position
        while position < input.count, Self.isScalarByte(input[position]) { emit() }
        let text = UnsafeBufferPointer(rebasing: input[start..<position])
        if Self.literals.contains(where: { $0.elementsEqual(text) }) { return true }
        return Double(String(decoding: text, as: UTF8.self)) != nil
    }

    private static let literals = [Array("true".utf8), Array("false".utf8), Array("null".utf8)]

    /// The characters of "0123456789+-.eEtruefalsn".
    private static func isScalarByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"),
            UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "n"):
            true
        default: false
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        position < input.count && input[position] == byte
    }

    private mutating func emit() {
        if !suppressed { written += 1 }
        position += 1
    }

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: emit()
            default: return
            }
        }
    }
}
