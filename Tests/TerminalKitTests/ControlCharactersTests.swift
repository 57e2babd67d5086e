import Testing

@testable import TerminalKit

/// The one definition of what a terminal must not get as it is from text that came from elsewhere (issue 45
/// item 8): the grid skips controls, `accessdeck conform`'s report escapes controls and bidi overrides.
@Suite struct ControlCharactersTests {
    @Test func controlsAreC0DelAndC1() {
        for value: UInt32 in [0x00, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9F] {
            #expect(ControlCharacters.isControl(Unicode.Scalar(value)!), "\(value)")
        }
        for value: UInt32 in [0x20, 0x7E, 0xA0, 0xE9, 0x202E] {
            #expect(!ControlCharacters.isControl(Unicode.Scalar(value)!), "\(value)")
        }
    }

    @Test func bidiControlsAreTheEmbeddingsOverridesAndIsolates() {
        for value: UInt32 in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            #expect(ControlCharacters.isBidiControl(Unicode.Scalar(value)!), "\(value)")
        }
        // Marks that only hint a direction, and the joiners, draw nothing that turns a line around.
        for value: UInt32 in [0x200D, 0x200E, 0x200F, 0x2029, 0x2065, 0x206A] {
            #expect(!ControlCharacters.isBidiControl(Unicode.Scalar(value)!), "\(value)")
        }
    }

    @Test func escapedWritesEachAsItsCodeAndKeepsTheRest() {
        #expect(ControlCharacters.escaped("plain 日本 🇬🇪 é") == "plain 日本 🇬🇪 é")
        #expect(
            ControlCharacters.escaped("a\u{9B}2Jb\u{202E}exe.txt\u{2066}\u{1B}[0m\u{7F}")
                == #"a\u009b2Jb\u202eexe.txt\u2066\u001b[0m\u007f"#)
    }

    /// The grid skips a control on screen, as before it had a name.
    @Test func theGridSkipsControls() {
        var grid = CellGrid(size: Size(cols: 6, rows: 1))
        let end = grid.put("a\u{9B}b\u{1B}c", at: Point(x: 0, y: 0), style: .plain)
        #expect(end == 3)
        #expect((0..<3).map { grid[$0, 0].grapheme } == ["a", "b", "c"])
    }

    /// Nor a bidi override or isolate: kept as a zero-width mark on the cell before it, it reached the terminal.
    @Test func theGridSkipsBidiControls() {
        var grid = CellGrid(size: Size(cols: 6, rows: 1))
        let end = grid.put("a\u{202E}b\u{2066}c\u{2069}", at: Point(x: 0, y: 0), style: .plain)
        #expect(end == 3)
        #expect((0..<3).map { grid[$0, 0].grapheme } == ["a", "b", "c"])
    }

    @Test func aFieldDropsBidiControls() {
        #expect(TextField.clean("ab\u{202E}c\u{1B}") == "abc")
    }
}
