/// Text measured in terminal columns, never in `String.count`: wrapping, truncating and padding
/// by display width so flags, CJK and combining marks line up.
public enum TextLayout {
    /// Splits text into lines no wider than `width` columns, breaking at spaces. A word wider
    /// than the line is cut by columns. Explicit newlines start a new line.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                var wordWidth = DisplayWidth.of(word)
                if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    let head = prefix(word, width: width)
                    lines.append(head)
                    word = String(word.dropFirst(head.count))
                    wordWidth = DisplayWidth.of(word)
                }
                line = word
                lineWidth = wordWidth
            }
            lines.append(line)
        }
        return lines
    }

    /// The longest prefix of `text` that fits in `width` columns.
    public static func prefix(_ text: String, width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width { break }
            result.append(character)
            used += w
        }
        return result
    }

    /// The text cut to `width` columns, ending in "…" when something was cut.
    public static func truncate(_ text: String, width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        guard width > ellipsisWidth else { return prefix(ellipsis, width: width) }
        // "Terminal…" rather than "Terminal …": a cut at a space drops the space.
        var head = prefix(text, width: width - ellipsisWidth)
        while head.last == " " { head.removeLast() }
        return head + ellipsis
    }

    /// The text (truncated if needed) followed by spaces up to `width` columns.
    public static func pad(_ text: String, width: Int) -> String {
        let cut = truncate(text, width: width)
        return cut + String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
    }

    /// Spaces then the text (truncated if needed), `width` columns in all.
    public static func rightAlign(_ text: String, width: Int) -> String {
        let cut = truncate(text, width: width)
        return String(repeating: " ", count: max(0, width - DisplayWidth.of(cut))) + cut
    }

    /// The column at which text of this width starts when centred in a span.
    public static func centeredX(width: Int, in span: Int, from x: Int = 0) -> Int {
        x + max(0, (span - width) / 2)
    }

    /// "m:ss" for a countdown ("0:27", "1:05"); negative counts as zero.
    /// "0:27", "14:52"; from an hour on "5:00:00" (a daily cap waits hours, not 300 minutes).
    public static func countdown(seconds: Int) -> String {
        let s = max(0, seconds)
        func twoDigits(_ n: Int) -> String { (n < 10 ? "0" : "") + "\(n)" }
        guard s >= 3600 else { return "\(s / 60):" + twoDigits(s % 60) }
        return "\(s / 3600):" + twoDigits(s / 60 % 60) + ":" + twoDigits(s % 60)
    }
}
