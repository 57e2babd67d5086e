import Foundation
import Testing

/// The mouse through a real terminal: tmux hands the app the xterm mouse reports the app asked for
/// (`ESC [ M` with the button and 1-based column and row, each plus 32, as tmux-256color's kmous says),
/// ncurses decodes them, and a click is the keys it stands for (`App/Mouse.swift`). The reports are
/// typed into the pane as bytes, as a terminal would send them.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: end-to-end tests need a real terminal"))
struct MouseEndToEndTests {
    func hub(arguments: [String] = []) throws -> Tmux {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(width: 100, height: 30, command: [binary] + arguments)
        try tmux.waitFor("Settings")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Email & password")
        return tmux
    }

    /// Column and row (0-based) of the first place `text` is drawn.
    func position(of text: String, in tmux: Tmux) throws -> (x: Int, y: Int) {
        let lines = try tmux.capture().split(separator: "\n", omittingEmptySubsequences: false)
        for (y, line) in lines.enumerated() {
            if let range = line.range(of: text) {
                return (line.distance(from: line.startIndex, to: range.lowerBound), y)
            }
        }
        throw Tmux.Failure(description: "\(text) is not on screen:\n\(try tmux.capture())")
    }

    func report(button: Int, x: Int, y: Int) -> String {
        "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + x)))
            + String(UnicodeScalar(UInt8(33 + y)))
    }

    /// Button 1 pressed, then released (button code 3), where `text` is drawn.
    func click(_ text: String, in tmux: Tmux) throws {
        let (x, y) = try position(of: text, in: tmux)
        try tmux.sendLiteral(report(button: 0, x: x + 1, y: y))
        try tmux.sendLiteral(report(button: 3, x: x + 1, y: y))
    }

    @Test func clickingARowOpensIt() throws {
        let tmux = try hub()
        try click("Email & password", in: tmux)
        let screen = try tmux.waitFor("Change password")
        #expect(screen.contains("Change email"))
    }

    @Test func clickingAFooterHintActsAsItsKey() throws {
        let tmux = try hub()
        try click("Esc/← Back", in: tmux)
        try tmux.waitUntil("Settings on top again") { $0.contains("Settings") && !$0.contains("Email & password") }
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Email & password")
        try click("?/F1 Help", in: tmux)
        try tmux.waitFor("Keyboard shortcuts")
    }

    @Test func theWheelMovesTheSelection() throws {
        let tmux = try hub()
        #expect(try tmux.capture().contains("▸ Phone number"))
        let (x, y) = try position(of: "Apple", in: tmux)
        try tmux.sendLiteral(report(button: 65, x: x, y: y))  // wheel down
        try tmux.waitFor("▸ Email & password")
        try tmux.sendLiteral(report(button: 64, x: x, y: y))  // wheel up
        try tmux.waitFor("▸ Phone number")
    }

    @Test func noMouseLeavesClicksAlone() throws {
        let tmux = try hub(arguments: ["--no-mouse"])
        try click("Email & password", in: tmux)
        // A key after the click: once it is drawn, the click has been read (and ignored) too.
        try tmux.sendKeys("Down")
        let screen = try tmux.waitFor("▸ Email & password")
        #expect(screen.contains("Account access"))
        #expect(!screen.contains("Change password"))
    }
}
