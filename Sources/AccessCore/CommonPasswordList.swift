import Foundation

/// Django's common passwords as the bundled file's bytes and the start of each line, the starts sorted by the
/// line they start: a lookup is a binary search over the bytes. A `Set` of the 19,640 strings held half a
/// megabyte from the first password check on, in the app and in the backend (issue 34 item 3); this holds the
/// file's 160 KB and 80 KB of offsets.
///
/// Membership is Swift's string equality, as the `Set` had it: canonically equivalent strings are the same
/// password. The lines are in Normalization Form C (`PasswordRulesTests`), so a password compared in that form,
/// byte for byte, matches exactly the lines it is canonically equivalent to.
struct CommonPasswordList: Sendable {
    private let text: [UInt8]
    private let starts: [UInt32]

    /// `text`: UTF-8, one entry a line.
    init(text: [UInt8]) {
        var starts: [UInt32] = []
        var start = 0
        for (index, byte) in text.enumerated() where byte == UInt8(ascii: "\n") {
            if index > start { starts.append(UInt32(start)) }
            start = index + 1
        }
        if text.count > start { starts.append(UInt32(start)) }
        self.text = text
        self.starts = text.withUnsafeBufferPointer { text in
            starts.sorted { Self.compare(text, line: Int($0), with: text, line: Int($1)) < 0 }
        }
    }

    var count: Int { starts.count }

    /// Every entry, in byte order.
    var entries: [String] {
        text.withUnsafeBufferPointer { text in
            starts.map { String(decoding: Self.line(text, at: Int($0)), as: UTF8.self) }
        }
    }

    func contains(_ password: String) -> Bool {
        var key = password.utf8.allSatisfy { $0 < 0x80 } ? password : password.precomposedStringWithCanonicalMapping
        return key.withUTF8 { key in
            text.withUnsafeBufferPointer { text in
                var low = 0
                var high = starts.count
                while low < high {
                    let middle = (low + high) / 2
                    let order = Self.compare(text, line: Int(starts[middle]), with: key)
                    if order == 0 { return true }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return false
            }
        }
    }

    private static func line(_ text: UnsafeBufferPointer<UInt8>, at start: Int) -> UnsafeBufferPointer<UInt8> {
        var end = start
        while end < text.count, text[end] != UInt8(ascii: "\n") { end += 1 }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    private static func compare(
        _ text: UnsafeBufferPointer<UInt8>, line: Int, with other: UnsafeBufferPointer<UInt8>, line otherLine: Int
    ) -> Int {
        compare(text, line: line, with: Self.line(other, at: otherLine))
    }

    /// Negative, zero or positive as the line at `line` sorts before, with or after `key`, byte by byte.
    private static func compare(
        _ text: UnsafeBufferPointer<UInt8>, line: Int, with key: UnsafeBufferPointer<UInt8>
    ) -> Int {
        var index = 0
        while true {
            let position = line + index
            let lineEnded = position >= text.count || text[position] == UInt8(ascii: "\n")
            let keyEnded = index >= key.count
            if lineEnded || keyEnded { return (lineEnded ? 0 : 1) - (keyEnded ? 0 : 1) }
            if text[position] != key[index] { return Int(text[position]) - Int(key[index]) }
            index += 1
        }
    }
}
