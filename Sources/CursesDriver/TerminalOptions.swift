import TerminalKit

/// How the terminal is driven: resolved once from flags and the environment, then fixed.
public struct TerminalOptions: Hashable, Sendable {
    public var theme: Theme
    /// Draw ASCII stand-ins for box drawing, flags and symbols (`--ascii`, `TERM=linux`/`dumb`).
    public var ascii: Bool
    /// How long a lone Esc waits for the rest of an escape sequence; nil means the user's
    /// ESCDELAY if set, else 25 ms.
    public var escapeDelayMilliseconds: Int?
    /// Clicks and the wheel reach the app (`--no-mouse` leaves the mouse to the terminal).
    public var mouse: Bool

    public init(theme: Theme = .dark, ascii: Bool = false, escapeDelayMilliseconds: Int? = nil, mouse: Bool = true) {
        self.theme = theme
        self.ascii = ascii
        self.escapeDelayMilliseconds = escapeDelayMilliseconds
        self.mouse = mouse
    }

    /// ncurses' own default (1 s) makes Esc feel broken; 25 ms is plenty for a local or
    /// tmux-relayed sequence to arrive whole.
    public static let defaultEscapeDelayMilliseconds = 25

    public var effectiveEscapeDelayMilliseconds: Int { escapeDelayMilliseconds ?? Self.defaultEscapeDelayMilliseconds }

    /// Pure: the same flags and environment always give the same options.
    ///
    /// `NO_COLOR` counts only when set and non-empty (no-color.org), and then wins over a
    /// requested theme. A user's `ESCDELAY` is honoured when it is a non-negative integer.
    public static func resolve(
        theme requested: Theme.Name?, asciiFlag: Bool, environment: [String: String]
    )
        -> TerminalOptions
    {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let name: Theme.Name = noColor ? .mono : (requested ?? .dark)
        let term = environment["TERM"] ?? ""
        let asciiTerminal = term == "linux" || term == "dumb" || term.hasPrefix("linux-")
        var delay: Int?
        if let text = environment["ESCDELAY"], let value = Int(text), value >= 0 { delay = value }
        return TerminalOptions(
            theme: .named(name), ascii: asciiFlag || asciiTerminal,
            escapeDelayMilliseconds: delay ?? defaultEscapeDelayMilliseconds)
    }
}
