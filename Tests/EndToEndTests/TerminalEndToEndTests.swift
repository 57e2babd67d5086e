import Foundation
import Testing

/// The built binary in a real terminal (tmux): the driver's contract. "Settings" and
/// "Account access" on screen, "Terminal too small" below 40x12, q or Ctrl+C quitting with
/// status 0 after restoring the terminal, and the Keyboard check echoing decoded input.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: end-to-end tests need a real terminal"))
struct TerminalEndToEndTests {
    func start(
        width: Int = 100, height: Int = 30, arguments: [String] = [], environment: [String: String] = [:]
    )
        throws -> Tmux
    {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(width: width, height: height, command: [binary] + arguments, environment: environment)
        try tmux.waitFor("Settings")
        return tmux
    }

    /// Exited with `status`, left the alternate screen, and no longer shows the app.
    func expectRestored(_ tmux: Tmux, status expected: Int) throws {
        let status = try tmux.waitForExit()
        #expect(status == expected)
        #expect(try tmux.format("#{alternate_on}") == "0")
        #expect(!(try tmux.capture()).contains("Settings"))
    }

    @Test func showsTheFirstScreen() throws {
        let tmux = try start()
        let screen = try tmux.waitFor("Account access")
        #expect(screen.contains("Settings"))
        #expect(try tmux.format("#{alternate_on}") == "1")
    }

    /// Issue 34: on the embedded backend the scenario's first screen is drawn while the backend starts, never
    /// the "Starting…" spinner; it answers keys at once, and keeps them for the app once the backend is up.
    @Test func theFirstScreenComesWhileTheBackendStartsAndKeepsItsKeys() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(width: 100, height: 30, command: [binary])
        let first = try tmux.waitUntil("a first frame") { $0.contains("Starting") || $0.contains("Settings") }
        #expect(!first.contains("Starting"))
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Enter")  // Screen gallery
        try tmux.waitFor("Enter shows a screen as a person would see it.")
        // The keys were sent again to the app's state once the backend was up: back from the gallery is the
        // backend's Settings, on the row they moved to.
        try tmux.sendKeys("Escape")
        let back = try tmux.waitFor("Backend: http")
        #expect(back.contains("▸ Screen gallery"))
    }

    @Test func aScenarioThatStartsSignedOutShowsWelcomeFirst() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(width: 100, height: 30, command: [binary, "--scenario", "new-user"])
        let first = try tmux.waitUntil("a first frame") { $0.contains("Starting") || $0.contains("Get started") }
        #expect(!first.contains("Starting") && !first.contains("Settings"))
    }

    @Test func theTitleStaysOnTheFirstRowAndTheKeysOnTheLast() throws {
        let tmux = try start()
        // A frame can reach tmux in more than one write: wait for its last row too.
        try tmux.waitFor("Quit")
        let lines = try tmux.capture().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 30)
        #expect(lines[0].contains("Settings"))
        #expect(lines[29].contains("Quit"))
    }

    @Test func resizingBelowTheMinimumAndBack() throws {
        let tmux = try start()
        try tmux.resize(width: 30, height: 8)
        let small = try tmux.waitFor("Terminal too small")
        #expect(!small.contains("Settings"))
        try tmux.resize(width: 100, height: 30)
        let large = try tmux.waitFor("Settings")
        #expect(!large.contains("Terminal too small"))
    }

    @Test func qQuitsWithStatusZeroAndRestoresTheTerminal() throws {
        let tmux = try start()
        let pid = try #require(try tmux.appPID())
        try tmux.sendKeys("q")
        try expectRestored(tmux, status: 0)
        #expect(!Tmux.isProcessAlive(pid))
    }

    /// TERM=linux and vt100 have no alternate screen to leave: the app clears its last screen itself as it
    /// quits, so the shell does not go on under it (issue 28 item 24).
    @Test(arguments: ["linux", "vt100"]) func aTerminalWithoutAnAlternateScreenIsLeftClear(term: String) throws {
        let tmux = try start(environment: ["TERM": term])
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == 0)
        #expect(!(try tmux.capture()).contains("Settings"))
    }

    @Test func ctrlCIsAKeyThatQuitsWithStatusZero() throws {
        let tmux = try start()
        try tmux.sendKeys("C-c")
        try expectRestored(tmux, status: 0)
    }

    @Test(arguments: [(SIGTERM, 143), (SIGINT, 130), (SIGHUP, 129)])
    func signalFromOutsideRestoresTheTerminal(signal: Int32, status: Int) throws {
        let tmux = try start()
        let pid = try #require(try tmux.appPID())
        #expect(kill(pid, signal) == 0)
        try expectRestored(tmux, status: status)
    }

    @Test func noColorMeansNoColourEscapes() throws {
        let tmux = try start(environment: ["NO_COLOR": "1"])
        let screen = try tmux.capture(escapes: true)
        #expect(screen.contains("Settings"))
        #expect(Self.colourEscapes(in: screen).isEmpty, "\(Self.colourEscapes(in: screen))")
    }

    @Test func theDefaultThemeDoesUseColour() throws {
        let tmux = try start()
        #expect(!Self.colourEscapes(in: try tmux.capture(escapes: true)).isEmpty)
    }

    /// Issue 50: on xterm's default TERM (8 colours) the nearest basic colour made the selection bar, the
    /// borders and the rules black on black. Each role takes its theme's basic colour there.
    @Test func onEightColoursTheSelectionBarAndTheRulesShow() throws {
        let tmux = try start(environment: ["TERM": "xterm"])
        let lines = try tmux.capture(escapes: true).split(separator: "\n")
        let selected = try #require(lines.first { $0.contains("Account access") })
        #expect(selected.contains("\u{1B}[44m"), "the selection bar, blue: \(selected)")
        let rule = try #require(lines.first { $0.contains("───") })
        #expect(rule.contains("\u{1B}[37m") && rule.contains("\u{1B}[40m"), "the rule, white on black: \(rule)")
    }

    /// The Settings screen's Keyboard check echoes every decoded key and paste.
    func startOnKeyboardCheck() throws -> Tmux {
        let tmux = try start()
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("last: nothing yet")
        return tmux
    }

    @Test func bracketedPasteArrivesAsOnePasteEvent() throws {
        let tmux = try startOnKeyboardCheck()
        try tmux.sendLiteral("\u{1B}[200~482915\u{1B}[201~")
        try tmux.waitFor("last: paste 482915")
    }

    @Test func pastedNewlinesAreDropped() throws {
        let tmux = try startOnKeyboardCheck()
        try tmux.sendLiteral("\u{1B}[200~48\r29\n15\u{1B}[201~")
        try tmux.waitFor("last: paste 482915")
    }

    @Test func theAppTurnsBracketedPasteOn() throws {
        let tmux = try startOnKeyboardCheck()
        try tmux.pasteBracketed("482915")
        try tmux.waitFor("last: paste 482915")
    }

    @Test(arguments: [
        ("Down", "last: key ↓"), ("Enter", "last: key Enter"), ("Escape", "last: key Esc"),
        ("BTab", "last: key Shift+Tab"), ("Tab", "last: key Tab"), ("C-a", "last: key Ctrl+A"),
        ("F5", "last: key F5"), ("F12", "last: key F12"), ("Home", "last: key Home"), ("End", "last: key End"),
        ("PPage", "last: key PgUp"), ("NPage", "last: key PgDn"), ("DC", "last: key Del"),
        ("BSpace", "last: key Backspace"),
    ])
    func keysArriveDecoded(key: String, expected: String) throws {
        let tmux = try startOnKeyboardCheck()
        try tmux.sendKeys(key)
        try tmux.waitFor(expected)
    }

    @Test func unicodeTextArrivesAsACharacter() throws {
        let tmux = try startOnKeyboardCheck()
        try tmux.sendLiteral("é")
        try tmux.waitFor("last: key é")
    }

    @Test func asciiModeDrawsNoBoxDrawingOrFlags() throws {
        let tmux = try start(arguments: ["--ascii"])
        let screen = try tmux.capture()
        #expect(screen.contains("-----"))
        #expect(!screen.contains("─"))
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII })
    }

    /// Issue 29, item 7: `t` and `a` in the gallery's preview stayed on after leaving it (Settings light or
    /// ASCII). They are the preview's own: back on Settings, its colours and box drawing are as before.
    @Test func thePreviewsThemeAndASCIIStayInThePreview() throws {
        let tmux = try start()
        // The first Settings answers keys before the backend is up; the one to compare with shows its URL.
        try tmux.waitFor("Backend: http")
        try tmux.sendKeys("Down")
        try tmux.waitFor("▸ Screen gallery")
        let settings = try tmux.capture(escapes: true)
        #expect(settings.contains("─"))
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Enter shows a screen")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("settings:default · 1 of ")
        try tmux.sendKeys("t")
        try tmux.waitUntil("the preview in the light theme") { _ in
            let colours = Set(Self.colourEscapes(in: (try? tmux.capture(escapes: true)) ?? ""))
            return colours != Set(Self.colourEscapes(in: settings))
        }
        try tmux.sendKeys("a")
        let ascii = try tmux.waitUntil("the preview in ASCII") { !$0.contains("─") && $0.contains("settings:default") }
        #expect(ascii.contains("t Theme  a ASCII"))
        try tmux.sendKeys("Escape")
        let gallery = try tmux.waitFor("Enter shows a screen")
        #expect(gallery.contains("─"), "the gallery is drawn in Unicode again:\n\(gallery)")
        try tmux.sendKeys("Escape")
        let back = try tmux.waitUntil("Settings again") {
            $0.contains("▸ Screen gallery") && !$0.contains("Enter shows a screen")
        }
        #expect(back.contains("─"), "Settings is drawn in Unicode again:\n\(back)")
        // Every cell's colours and characters as before the preview (polled: the frame may still be arriving).
        try tmux.waitUntil("Settings exactly as before the preview") { _ in
            (try? tmux.capture(escapes: true)) == settings
        }
    }

    // MARK: Issue 10 item 18: terminals this machine has no terminfo entry for

    /// The app in tmux with its stderr in a file: tmux scrolls a dead pane's screen by a line
    /// to write "Pane is dead", so the screen cannot be trusted to keep what was printed last.
    func startCapturingErrors(term: String) throws -> (Tmux, errorsPath: String) {
        let binary = try AccessDeckBinary.requireBuilt()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-e2e-\(UUID()).err").path
        let tmux = try Tmux(
            width: 100, height: 30, command: ["sh", "-c", "exec \"$0\" 2>\"$1\"", binary, errors],
            environment: ["TERM": term])
        return (tmux, errors)
    }

    func contents(_ path: String) -> String {
        defer { try? FileManager.default.removeItem(atPath: path) }
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// kitty, ghostty and alacritty over ssh send a TERM this machine may not know (here
    /// xterm-direct is missing too): the app draws as xterm-256color and says so.
    @Test func aTermWithoutTerminfoFallsBackToXterm256colorAndSaysSo() throws {
        let (tmux, errors) = try startCapturingErrors(term: "xterm-direct")
        try tmux.waitFor("Settings")
        try tmux.waitFor("No terminfo for xterm-direct: drawing as xterm-256color")
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == 0)
        #expect(
            contents(errors)
                == "accessdeck: this machine has no terminfo entry for TERM=xterm-direct; drew the screens as "
                + "xterm-256color. To silence this, install the entry (Debian: apt-get install ncurses-term) or set "
                + "TERM=xterm-256color.\n")
    }

    @Test func dumbTerminalsAreToldToUseRenderOrPlay() throws {
        let (tmux, errors) = try startCapturingErrors(term: "dumb")
        #expect(try tmux.waitForExit() == 1)
        let message = contents(errors)
        #expect(message.hasPrefix("accessdeck: this terminal (TERM=dumb) cannot draw screens"))
        #expect(message.contains("`accessdeck render SCREEN[:STATE]`"))
        #expect(message.contains("`accessdeck play TAPE --dump`"))
        #expect(message.filter { $0 == "\n" }.count == 1)
        #expect(!(try tmux.capture()).contains("Settings"))
    }

    /// Foreground/background SGR colour parameters: 30–38, 40–48, 90–97, 100–107. Bold, dim,
    /// underline and reverse are allowed, and so are 39/49 ("default colour"): capture-pane
    /// writes `\e[0m\e[39m\e[49m` after every attribute change on its own, even for a pane
    /// that never sent a colour.
    static func colourEscapes(in screen: String) -> [String] {
        let pattern = #"\x1B\[[0-9;]*m"#
        let regex = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(screen.startIndex..., in: screen)
        return regex.matches(in: screen, range: range).compactMap { match in
            let sequence = String(screen[Range(match.range, in: screen)!])
            let parameters = sequence.dropFirst(2).dropLast().split(separator: ";").compactMap { Int($0) }
            let isColour = parameters.contains { value in
                value != 39 && value != 49 && ((30...48).contains(value) || (90...107).contains(value))
            }
            return isColour ? sequence : nil
        }
    }
}
