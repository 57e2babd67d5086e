import Foundation

/// What a screen can be exported as: plain text, text with ANSI colours, or a picture that
/// looks like the terminal (SVG, HTML).
public enum ExportFormat: String, CaseIterable, Sendable {
    case text, ansi, svg, html

    public var fileExtension: String {
        switch self {
        case .text: return "txt"
        case .ansi: return "ans"
        case .svg: return "svg"
        case .html: return "html"
        }
    }

    /// `accessdeck-<screen-id>-<yyyyMMdd-HHmmss>.<ext>`, in local time unless told otherwise.
    /// Characters a file name should not carry (`:` of "hub:android", `/`, spaces) become `-`.
    public func fileName(screenID: String, at date: Date, timeZone: TimeZone = .current) -> String {
        let safeID = String(
            screenID.map { character -> Character in
                character.isASCII && (character.isLetter || character.isNumber || "-_.".contains(character))
                    ? character : "-"
            })
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let text = String(value ?? 0)
            return text.count == 1 ? "0" + text : text
        }
        let stamp =
            "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))"
        return "accessdeck-\(safeID)-\(stamp).\(fileExtension)"
    }
}
