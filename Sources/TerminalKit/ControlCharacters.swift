/// What a terminal acts on instead of drawing, in text that came from elsewhere (a backend's bodies, a paste):
/// one definition for the grid, which skips these, the text field and a paste, which drop them, and
/// `accessdeck conform`'s report, which writes them escaped (issue 45 item 8).
public enum ControlCharacters {
    /// C0 controls, DEL and the C1 controls U+0080–U+009F: U+009B is a CSI, as ESC [ is.
    @inlinable
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F..<0xA0).contains(value)
    }

    /// The bidi embeddings and overrides U+202A–U+202E and the isolates U+2066–U+2069: no column of their own,
    /// they turn the text after them around where a terminal applies them, so a line reads other than it is.
    @inlinable
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Either of the two: what the grid skips, a field and a paste drop, and a report escapes.
    @inlinable
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || isBidiControl(scalar) }

    /// `\u009b` for a scalar that must not reach a terminal as it is (`isControl`, `isBidiControl`); nil for
    /// any other. Inside a JSON string the escape is the same character again.
    public static func escape(_ scalar: Unicode.Scalar) -> String? {
        guard isUnsafe(scalar) else { return nil }
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `text` as a line of plain output may show it: every control and bidi control escaped, the rest as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if let escape = escape(scalar) { out += escape } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
