import Foundation
import Testing

@testable import AccessApp

@Suite struct TapeParsingTests {
    @Test func parsesEveryKindOfStep() throws {
        let tape = try Tape(
            parsing: """
                # a comment
                size 100x30
                key Down 2
                type ab
                paste 482 915
                wait 2.5
                resize 30x8
                key C-c
                screen
                """)
        #expect(tape.size == .init(cols: 100, rows: 30))
        #expect(
            tape.steps.map(\.step) == [
                .input(.key(.down)), .input(.key(.down)), .input(.key(.character("a"))), .input(.key(.character("b"))),
                .input(.paste("482 915")), .wait(seconds: 2.5), .input(.resize(.init(cols: 30, rows: 8))),
                .input(.key(.control("c"))), .screen,
            ])
        #expect(tape.steps.first?.line == 3)
    }

    @Test func knowsTmuxKeyNamesAndAliases() {
        #expect(Tape.key(named: "BSpace") == .backspace)
        #expect(Tape.key(named: "Backspace") == .backspace)
        #expect(Tape.key(named: "NPage") == .pageDown)
        #expect(Tape.key(named: "F12") == .function(12))
        #expect(Tape.key(named: "F13") == nil)
        #expect(Tape.key(named: "?") == .character("?"))
        #expect(Tape.key(named: "Sideways") == nil)
    }

    @Test(arguments: [
        ("key Sideways", "line 1: unknown key 'Sideways'"),
        ("\nwait soon", "line 2: wait takes seconds, such as 3 or 0.5"),
        ("size big", "line 1: size takes COLSxROWS, such as 80x24"),
        ("key Down 0", "line 1: the count must be 1 to 1000"),
        ("dance", "line 1: unknown step 'dance'; steps are size, resize, key, type, paste, wait, screen"),
        ("type", "line 1: type needs text"),
    ])
    func mistakesNameTheLine(text: String, message: String) {
        #expect(throws: Tape.ParseError.self) { try Tape(parsing: text) }
        do {
            _ = try Tape(parsing: text)
        } catch {
            #expect("\(error)" == message)
        }
    }
}

@Suite struct HeadlessRuntimeTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aTapeReplaysNavigationAndStopsAtQuit() throws {
        let tape = try Tape(parsing: "key Down\nkey Enter\nkey q\nkey Escape")
        let runtime = play(tape, from: AppState(now: start)) { _, _ in }
        #expect(runtime.quit)
        #expect(runtime.state.stack.count == 2)  // the Escape after q never ran
    }

    @Test func waitingFiresTimersOnTheTapesClock() throws {
        var screens: [String] = []
        var hub = SampleData.state([], now: start)
        hub.isOffline = true
        let tape = try Tape(parsing: "key Enter\nscreen\nwait 2\nscreen\nwait 1\nscreen")
        _ = play(tape, from: hub) { _, grid in screens.append(grid.text()) }
        let message = "You're offline. Changes are off"
        #expect(screens.map { $0.contains(message) } == [true, true, false])
    }

    @Test func resizeChangesTheRenderedSize() throws {
        let tape = try Tape(parsing: "resize 30x8")
        let runtime = play(tape, from: AppState(now: start)) { _, _ in }
        #expect(runtime.screen.size == .init(cols: 30, rows: 8))
        #expect(runtime.screen.text().contains("Terminal too small"))
    }
}
