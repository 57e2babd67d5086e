import CNcursesw

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which terminfo entry drives the terminal.
///
/// People reach this machine over ssh from terminals whose entries it lacks (kitty sends
/// `xterm-kitty`, ghostty `xterm-ghostty`, alacritty `alacritty`; here even `xterm-direct`).
/// Those terminals all speak xterm's language, so `xterm-256color`, then `xterm`, draws them
/// correctly bar a few extras; refusing to start would help nobody. `dumb` is the opposite:
/// its entry exists, but it cannot move the cursor, so no fallback is honest there.
public struct TerminalType: Hashable, Sendable {
    /// What terminfo knows of one type.
    public enum Entry: Hashable, Sendable {
        case usable
        /// No entry on this machine (or no terminfo database at all).
        case missing
        /// An entry that cannot address the cursor: it cannot draw a screen.
        case cannotDrawScreens
    }

    /// The entry to open.
    public var name: String
    /// `TERM` as found; nil when unset or empty.
    public var requested: String?

    public init(name: String, requested: String?) {
        self.name = name
        self.requested = requested
    }

    /// Tried in order when `TERM` has no entry: colour first, then the oldest common ground.
    public static let fallbacks = ["xterm-256color", "xterm"]

    /// True when the entry opened is not the one `TERM` names.
    public var isFallback: Bool { name != requested }

    /// The line printed on stderr after the app exits (the screen it would go to is gone by
    /// then, and the scrollback keeps it), or nil when `TERM` was used as it is.
    public var notice: String? {
        guard isFallback else { return nil }
        guard let requested else {
            return "accessdeck: TERM is not set; drew the screens as \(name). Set TERM to your terminal's type."
        }
        return "accessdeck: this machine has no terminfo entry for TERM=\(requested); drew the screens as \(name). "
            + "To silence this, install the entry (Debian: apt-get install ncurses-term) or set TERM=\(name)."
    }

    /// The short form for a toast while the app runs.
    public var shortNotice: String? {
        guard isFallback else { return nil }
        return "No terminfo for \(requested ?? "an unset TERM"): drawing as \(name)"
    }

    /// Pure: picks the entry for `term` given what terminfo says of each type.
    public static func choose(
        term: String?, lookup: (String) -> Entry
    ) -> Result<TerminalType, CursesError> {
        let requested = term.flatMap { $0.isEmpty ? nil : $0 }
        if let requested {
            // dumb's entry may even be missing on a minimal system; it still cannot draw.
            if requested == "dumb" { return .failure(.cannotDrawScreens(term: requested)) }
            switch lookup(requested) {
            case .usable: return .success(TerminalType(name: requested, requested: requested))
            case .cannotDrawScreens: return .failure(.cannotDrawScreens(term: requested))
            case .missing: break
            }
        }
        for fallback in fallbacks where fallback != requested && lookup(fallback) == .usable {
            return .success(TerminalType(name: fallback, requested: requested))
        }
        return .failure(.noTerminfo(term: requested, tried: fallbacks.filter { $0 != requested }))
    }

    /// What this machine's terminfo says of `name` (reads the database; opens no screen).
    public static func lookup(_ name: String) -> Entry {
        switch accessdeck_probe_terminal(name, STDOUT_FILENO) {
        case 1: return .usable
        case -1: return .cannotDrawScreens
        default: return .missing
        }
    }

    /// `choose` for this process: `TERM` from `environment` and this machine's terminfo.
    public static func resolve(environment: [String: String]) -> Result<TerminalType, CursesError> {
        choose(term: environment["TERM"], lookup: lookup)
    }
}

extension CursesError: CustomStringConvertible {
    /// A sentence a person can act on (printed after "accessdeck: " on stderr, exit 1).
    public var description: String {
        switch self {
        case .notATerminal:
            return "the app needs a terminal; `accessdeck render` and `accessdeck play` print screens as text"
        case .cannotOpenTerminal(let term):
            return
                "cannot open the terminal as TERM=\(term); set TERM to your terminal's type, e.g. TERM=xterm-256color"
        case .cannotDrawScreens(let term):
            return "this terminal (TERM=\(term)) cannot draw screens: it cannot move the cursor. "
                + "`accessdeck render SCREEN[:STATE]` prints one screen as text and `accessdeck play TAPE --dump` "
                + "replays a tape; for the app, use a terminal that can, such as xterm, tmux or your desktop's "
                + "terminal app"
        case .noTerminfo(let term, let tried):
            let named = term.map { "TERM=\($0)" } ?? "an unset TERM"
            return "this machine has no terminfo entry for \(named), nor for \(tried.joined(separator: " or ")). "
                + "Set TERM to a type `toe -a` lists (e.g. export TERM=xterm-256color) or install terminfo "
                + "(Debian: apt-get install ncurses-base ncurses-term)"
        case .wakePipe(let code):
            return "cannot create the app's wake-up pipe: \(String(cString: strerror(code)))"
        }
    }
}
