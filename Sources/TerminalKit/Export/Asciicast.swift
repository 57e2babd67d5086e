import Foundation

/// A session as an asciicast v2 file (`.cast`), the format asciinema and agg play and turn into GIFs:
/// a header line of JSON, then one JSON array a line, `[seconds, "o", text]` for what the terminal
/// printed and `[seconds, "r", "COLSxROWS"]` for a resize. Each frame is the whole screen redrawn
/// (home, clear, then the ANSI export's lines), so any event can be shown on its own and a frame
/// the same as the one before is left out. Times only go forward.
public struct AsciicastRecorder {
    /// Pauses longer than this are shortened by players that honour the header's `idle_time_limit`.
    public static let idleTimeLimit: TimeInterval = 2

    private var lastFrame: String?
    private var lastSize: Size?
    private var lastTime: TimeInterval = 0
    private let theme: Theme

    public init(theme: Theme) { self.theme = theme }

    /// The header line: the terminal's size, when it started, and a title.
    public static func header(size: Size, startedAt: Date, title: String?) -> String {
        var fields = [
            "\"version\":2", "\"width\":\(size.cols)", "\"height\":\(size.rows)",
            "\"timestamp\":\(Int(startedAt.timeIntervalSince1970))",
            "\"idle_time_limit\":\(Int(idleTimeLimit))",
            "\"env\":{\"TERM\":\"xterm-256color\"}",
        ]
        if let title { fields.append("\"title\":\(jsonString(title))") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The event lines for the screen at `seconds` after the start: a resize when the size changed,
    /// the frame when it differs from the last one; nothing when the screen is as it was.
    public mutating func record(_ grid: CellGrid, at seconds: TimeInterval) -> [String] {
        let time = max(seconds, lastTime)
        var lines: [String] = []
        if let lastSize, lastSize != grid.size {
            lines.append("[\(Self.seconds(time)), \"r\", \"\(grid.size.cols)x\(grid.size.rows)\"]")
        }
        let frame = Self.frame(grid, theme: theme)
        if frame != lastFrame || !lines.isEmpty {
            lines.append("[\(Self.seconds(time)), \"o\", \(Self.jsonString(frame))]")
        }
        lastSize = grid.size
        lastFrame = frame
        if !lines.isEmpty { lastTime = time }
        return lines
    }

    /// The screen as a terminal would be sent it: cursor home, clear, the rows in their colours.
    public static func frame(_ grid: CellGrid, theme: Theme) -> String {
        let rows = GridExport.ansi(grid, theme: theme).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
        return "\u{1B}[H\u{1B}[2J" + rows.joined(separator: "\r\n")
    }

    static func seconds(_ value: TimeInterval) -> String { String(format: "%.3f", value) }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as UTF-8.
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
