import CursesDriver
import Testing

/// Issue 10 item 18: a TERM without terminfo falls back to xterm's entries with a notice; dumb
/// and a machine without any usable entry stop with a sentence, not a Swift value.
@Suite struct TerminalTypeTests {
    /// A machine with xterm's entries and dumb, like this one without ncurses-term.
    static func here(_ name: String) -> TerminalType.Entry {
        switch name {
        case "xterm-256color", "xterm", "tmux-256color", "screen-256color", "linux": return .usable
        case "dumb": return .cannotDrawScreens
        default: return .missing
        }
    }

    @Test func aKnownTermIsUsedAsItIs() throws {
        let type = try TerminalType.choose(term: "tmux-256color", lookup: Self.here).get()
        #expect(type == TerminalType(name: "tmux-256color", requested: "tmux-256color"))
        #expect(!type.isFallback)
        #expect(type.notice == nil)
        #expect(type.shortNotice == nil)
    }

    @Test(arguments: ["xterm-kitty", "xterm-ghostty", "alacritty", "xterm-direct"])
    func aTermWithoutAnEntryFallsBackToXterm256color(term: String) throws {
        let type = try TerminalType.choose(term: term, lookup: Self.here).get()
        #expect(type.name == "xterm-256color")
        #expect(type.isFallback)
        #expect(
            type.notice
                == "accessdeck: this machine has no terminfo entry for TERM=\(term); drew the screens as xterm-256color. "
                + "To silence this, install the entry (Debian: apt-get install ncurses-term) or set TERM=xterm-256color."
        )
        #expect(type.shortNotice == "No terminfo for \(term): drawing as xterm-256color")
    }

    @Test func thenPlainXterm() throws {
        let type = try TerminalType.choose(term: "xterm-kitty", lookup: { $0 == "xterm" ? .usable : .missing }).get()
        #expect(type.name == "xterm")
    }

    @Test func anUnsetTermFallsBackToo() throws {
        for term in [nil, ""] as [String?] {
            let type = try TerminalType.choose(term: term, lookup: Self.here).get()
            #expect(type.name == "xterm-256color")
            #expect(type.notice?.hasPrefix("accessdeck: TERM is not set; drew the screens as xterm-256color.") == true)
        }
    }

    @Test func dumbCannotDrawScreensAndSaysWhatToUse() {
        let result = TerminalType.choose(term: "dumb", lookup: Self.here)
        #expect(result == .failure(.cannotDrawScreens(term: "dumb")))
        // Even where dumb's own entry is missing: it never draws screens.
        #expect(
            TerminalType.choose(term: "dumb", lookup: { _ in .missing }) == .failure(.cannotDrawScreens(term: "dumb")))
        let message = "\(CursesError.cannotDrawScreens(term: "dumb"))"
        #expect(message.hasPrefix("this terminal (TERM=dumb) cannot draw screens"))
        #expect(message.contains("accessdeck render"))
        #expect(message.contains("accessdeck play"))
        #expect(!message.contains("\n"))
        // The whole sentence: it once ended on "your desktop's" (issue 28 item 24).
        #expect(message.hasSuffix("your desktop's terminal app"))
    }

    @Test func anEntryWithoutCursorAddressingIsNotReplaced() {
        let lookup: (String) -> TerminalType.Entry = { $0 == "hardcopy" ? .cannotDrawScreens : Self.here($0) }
        #expect(TerminalType.choose(term: "hardcopy", lookup: lookup) == .failure(.cannotDrawScreens(term: "hardcopy")))
    }

    @Test func withNothingUsableItSaysInWordsWhatToSet() {
        let result = TerminalType.choose(term: "xterm-kitty", lookup: { _ in .missing })
        #expect(result == .failure(.noTerminfo(term: "xterm-kitty", tried: ["xterm-256color", "xterm"])))
        let message = "\(CursesError.noTerminfo(term: "xterm-kitty", tried: ["xterm-256color", "xterm"]))"
        #expect(
            message
                == "this machine has no terminfo entry for TERM=xterm-kitty, nor for xterm-256color or xterm. "
                + "Set TERM to a type `toe -a` lists (e.g. export TERM=xterm-256color) or install terminfo "
                + "(Debian: apt-get install ncurses-base ncurses-term)")
        #expect(!"\(CursesError.cannotOpenTerminal(term: "x"))".contains("cannotOpenTerminal"))
    }

    /// The real terminfo of this machine, read without opening a screen.
    @Test func thisMachinesTerminfo() {
        #expect(TerminalType.lookup("xterm-256color") == .usable)
        #expect(TerminalType.lookup("dumb") == .cannotDrawScreens)
        #expect(TerminalType.lookup("accessdeck-no-such-terminal") == .missing)
    }
}
