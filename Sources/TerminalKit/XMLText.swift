/// Text for an XML attribute or element (a JUnit report: conform's, the proxy's).
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            // XML 1.0 has no way to write the other C0 controls; C1 controls and bidi overrides would reach the
            // terminal or the page that shows the report. Written escaped, as in the text report.
            default: out += ControlCharacters.escape(scalar) ?? String(scalar)
            }
        }
        return out
    }
}
