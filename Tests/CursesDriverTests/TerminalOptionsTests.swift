import CursesDriver
import TerminalKit
import Testing

@Suite struct TerminalOptionsTests {
    func resolve(_ environment: [String: String], theme: Theme.Name? = nil, ascii: Bool = false) -> TerminalOptions {
        CursesTerminal.resolveOptions(theme: theme, asciiFlag: ascii, environment: environment)
    }

    @Test func defaultsToDarkUnicodeAnd25Milliseconds() {
        let options = resolve(["TERM": "tmux-256color"])
        #expect(options.theme.name == .dark)
        #expect(!options.ascii)
        #expect(options.escapeDelayMilliseconds == 25)
    }

    @Test func theMouseIsOnUnlessTurnedOff() {
        #expect(resolve(["TERM": "tmux-256color"]).mouse)
        #expect(!TerminalOptions(mouse: false).mouse)
    }

    @Test func requestedThemeIsUsed() {
        #expect(resolve(["TERM": "xterm-256color"], theme: .light).theme.name == .light)
    }

    @Test func noColorSetAndNonEmptyMeansMono() {
        #expect(resolve(["NO_COLOR": "1"]).theme.name == .mono)
        #expect(resolve(["NO_COLOR": "yes"], theme: .light).theme.name == .mono)
    }

    @Test func emptyNoColorIsIgnored() {
        #expect(resolve(["NO_COLOR": ""]).theme.name == .dark)
        #expect(resolve(["NO_COLOR": ""], theme: .light).theme.name == .light)
    }

    @Test(arguments: ["linux", "dumb"])
    func consoleTerminalsGetAscii(term: String) {
        #expect(resolve(["TERM": term]).ascii)
    }

    @Test func asciiFlagWins() {
        #expect(resolve(["TERM": "xterm-256color"], ascii: true).ascii)
        #expect(!resolve(["TERM": "xterm-256color"]).ascii)
    }

    @Test func userEscapeDelayIsHonoured() {
        #expect(resolve(["ESCDELAY": "100"]).escapeDelayMilliseconds == 100)
        #expect(resolve(["ESCDELAY": "0"]).escapeDelayMilliseconds == 0)
    }

    @Test func invalidEscapeDelayFallsBackTo25() {
        #expect(resolve(["ESCDELAY": "soon"]).escapeDelayMilliseconds == 25)
        #expect(resolve(["ESCDELAY": "-5"]).escapeDelayMilliseconds == 25)
        #expect(TerminalOptions(escapeDelayMilliseconds: nil).effectiveEscapeDelayMilliseconds == 25)
    }
}
