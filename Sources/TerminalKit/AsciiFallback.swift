/// Width-preserving ASCII stand-ins for what a Linux console or a dumb terminal cannot draw.
///
/// Every replacement takes exactly the columns of the grapheme it replaces, so a grid keeps
/// its layout when it is converted (`--ascii`, `TERM=linux`/`dumb`, headless output).
public enum AsciiFallback {
    /// The ASCII text, `width` columns wide, that stands in for `grapheme`.
    public static func replacement(for grapheme: String, width: Int) -> String {
        let columns = max(0, width)
        guard columns > 0 else { return "" }
        let scalars = Array(grapheme.unicodeScalars)
        if let first = scalars.first, first.value >= 0x20, first.value < 0x7F {
            // A printable ASCII base keeps its letter; accents and variation selectors go.
            return pad(String(Character(first)), to: columns)
        }
        if scalars.count == 2, scalars.allSatisfy(isRegionalIndicator) {
            let letters = scalars.map { Character(Unicode.Scalar($0.value - 0x1F1E6 + 0x41)!) }
            return pad(String(letters), to: columns)
        }
        if let first = scalars.first, let mapped = lookalike(first) {
            return pad(mapped, to: columns)
        }
        return String(repeating: "?", count: columns)
    }

    /// Fits a replacement to the columns: long ones are cut, short ones padded with spaces.
    private static func pad(_ text: String, to columns: Int) -> String {
        let cut = String(text.prefix(columns))
        return cut + String(repeating: " ", count: columns - cut.count)
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    private static func lookalike(_ scalar: Unicode.Scalar) -> String? {
        if let mapped = symbols[scalar.value] { return mapped }
        return boxDrawing(scalar.value)
    }

    /// U+2500–U+257F: lines become `-` or `|`, anything that joins lines becomes `+`.
    private static func boxDrawing(_ value: UInt32) -> String? {
        guard (0x2500...0x257F).contains(value) else { return nil }
        switch value {
        case 0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x254C, 0x254D, 0x2550, 0x2574, 0x2576, 0x2578,
            0x257A, 0x257C, 0x257E:
            return "-"
        case 0x2502, 0x2503, 0x2506, 0x2507, 0x250A, 0x250B, 0x254E, 0x254F, 0x2551, 0x2575, 0x2577, 0x2579,
            0x257B, 0x257D, 0x257F:
            return "|"
        case 0x2571: return "/"
        case 0x2572: return "\\"
        case 0x2573: return "X"
        default: return "+"
        }
    }

    private static let symbols: [UInt32: String] = [
        0x2022: "*", 0x00B7: ".", 0x25CF: "*", 0x25CB: "o", 0x25E6: "o", 0x25AA: "*", 0x25A0: "#",
        0x203A: ">", 0x2039: "<", 0x00BB: ">", 0x00AB: "<",
        0x25B8: ">", 0x25B6: ">", 0x25BA: ">", 0x25C2: "<", 0x25C0: "<", 0x25C4: "<",
        0x25B4: "^", 0x25B2: "^", 0x25BE: "v", 0x25BC: "v",
        0x2190: "<", 0x2192: ">", 0x2191: "^", 0x2193: "v", 0x2194: "-", 0x2195: "|",
        0x21B5: "<", 0x21B3: ">", 0x21E5: ">", 0x21E4: "<",
        0x2026: "...", 0x2013: "-", 0x2014: "-", 0x2018: "'", 0x2019: "'", 0x201C: "\"", 0x201D: "\"",
        0x270E: "/", 0x270F: "/", 0x2710: "/",
        0x2713: "v", 0x2714: "v", 0x2705: "v", 0x2717: "x", 0x2718: "x", 0x274C: "x", 0x2715: "x", 0x2716: "x",
        0x2610: "[", 0x2611: "v", 0x2612: "x",
        0x2591: "#", 0x2592: "#", 0x2593: "#", 0x2588: "#", 0x2580: "#", 0x2584: "#",
        0x26A0: "!", 0x2139: "i", 0x2757: "!", 0x2753: "?", 0x2605: "*", 0x2606: "*",
        0x00A0: " ", 0x2003: " ", 0x2002: " ", 0x2009: " ",
        0x20AC: "E", 0x00A3: "L", 0x00D7: "x", 0x2212: "-", 0x2248: "~", 0x00B0: "o",
        0x231B: "~", 0x23F3: "~", 0x1F512: "#", 0x1F513: "#", 0x1F511: "k", 0x1F5D1: "x",
    ]
}

extension CellGrid {
    /// The same grid drawn in ASCII only, cell for cell: every column stays where it was.
    public func asciiFallback() -> CellGrid {
        var result = CellGrid(size: size)
        for y in 0..<size.rows {
            for x in 0..<size.cols {
                let cell = self[x, y]
                guard !cell.isContinuation else { continue }
                let text = AsciiFallback.replacement(for: cell.grapheme, width: cell.width)
                result.put(text, at: Point(x: x, y: y), style: cell.style)
            }
        }
        return result
    }
}
