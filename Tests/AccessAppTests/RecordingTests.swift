import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// Recordings people share (`play --cast/--svg-dir`, `run --cast`): asciicast v2 that players read,
/// and never a code or a password in them.
@Suite struct RecordingTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func state(_ id: String) throws -> AppState { try #require(Gallery.entry(id)).makeState(start) }

    /// A tape replayed offline into a film, as `accessdeck play --cast --svg-dir` does.
    func film(_ text: String) async throws -> (TapeFilm, TapeReplay) {
        let tape = try Tape(parsing: text)
        var replay = TapeReplay(
            state: AppState(now: start), size: tape.size, backend: OfflineReplayBackend(now: start))
        var film = TapeFilm(size: tape.size, title: "test", theme: .dark, startedAt: start)
        film.start(replay.runtime.state, size: replay.runtime.size)
        try await replay.play(
            tape,
            afterStep: { entry, runtime, lineDone in
                film.step(entry, runtime.state, size: runtime.size, lineDone: lineDone)
            }, onScreen: { _, _ in })
        return (film, replay)
    }

    @Test func aTapesCastIsAsciicastV2WhoseLastFrameIsTheLastScreen() async throws {
        let (film, replay) = try await film("size 60x20\nkey Down\ntype ab\nwait 3\nkey Escape\nresize 70x22\n")
        let header = try #require(
            JSONSerialization.jsonObject(with: Data(film.castLines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2)
        #expect(header["width"] as? Int == 60)
        #expect(header["height"] as? Int == 20)
        #expect(header["timestamp"] as? Int == 1_800_000_000)
        #expect(header["title"] as? String == "test")
        let events = try film.castLines.dropFirst().map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])
        }
        #expect(events.count >= 3)
        let times = events.compactMap { $0[0] as? Double }
        #expect(times.count == events.count)
        #expect(times == times.sorted(), "times go forward: \(times)")
        // The wait is 3 s of the film: the steady clock, not the real one.
        #expect((times.last ?? 0) >= 3)
        #expect(events.contains { $0[1] as? String == "r" && $0[2] as? String == "70x22" })
        let last = try #require(events.last { $0[1] as? String == "o" })
        let shown = Self.screenText(try #require(last[2] as? String))
        #expect(shown == replay.screen.textLines().map { String($0) })
        // One picture a tape line, in order, each a whole SVG.
        #expect(
            film.pictures.map(\.name) == [
                "001-line-2.svg", "002-line-3.svg", "003-line-4.svg", "004-line-5.svg",
                "005-line-6.svg",
            ])
        #expect(film.pictures.allSatisfy { $0.svg.hasPrefix("<?xml") && $0.svg.hasSuffix("</svg>\n") })
    }

    /// What `--gif`, `--mp4`, `--webm` and `--png-dir` draw: every screen once, at the film time it appeared, and
    /// the password typed nowhere in them.
    @Test func aFilmsFramesAreEachScreenOnceAtItsTimeWithoutThePassword() async throws {
        let (film, _) = try await film(
            "size 80x24\nkey Enter\nkey Enter\nkey Enter\ntype pw12\nkey Right\nwait 2\nkey Right\n")
        #expect(film.frames.first?.at == 0)
        #expect(film.frames.map(\.at) == film.frames.map(\.at).sorted())
        #expect(zip(film.frames, film.frames.dropFirst()).allSatisfy { $0.grid != $1.grid }, "no screen twice in a row")
        // Nine keys (four typed) a beat each and the wait; the last screen stays one beat more.
        #expect(abs(film.duration - (10 * TapeFilm.defaultBeat + 2)) < 0.001)
        for frame in film.frames { #expect(!frame.grid.text().contains("pw12")) }
        #expect(film.lines.map(\.line) == [2, 3, 4, 5, 6, 7, 8])
    }

    @Test func theCodeBoxesAndAShownPasswordAreDotsInARecording() throws {
        let code = try state("enter-code:partial")
        #expect(render(code, size: .standard).text().contains("4"), "the screen itself shows the digits")
        let codeFrame = render(code.concealedForRecording, size: .standard)
        for digit in ["4", "8", "2"] {
            #expect(!Self.otpRow(codeFrame).contains(digit), "digit \(digit) in the recording")
        }
        #expect(Self.otpRow(codeFrame).filter { $0 == "•" }.count == 3)
        let password = try state("password-login:shown")
        #expect(render(password, size: .standard).text().contains("correct-horse"))
        #expect(!render(password.concealedForRecording, size: .standard).text().contains("correct-horse"))
    }

    @Test func theOutboxPanelIsLeftOutOfARecording() throws {
        let outbox = try state("hub:outbox")
        #expect(outbox.overlay != nil)
        #expect(outbox.concealedForRecording.overlay == nil)
        var closed = outbox
        closed.overlay = nil
        // Compared as text: a whole grid's description would drown the message.
        #expect(render(outbox.concealedForRecording, size: .standard).text() == render(closed, size: .standard).text())
    }

    /// The row of the code boxes' digits: the one between their top and bottom borders.
    static func otpRow(_ grid: CellGrid) -> String {
        let lines = grid.textLines()
        let top = lines.firstIndex { $0.contains("┏") || $0.contains("╭") && $0.filter { $0 == "╭" }.count >= 6 }
        return top.map { lines[$0 + 1] } ?? ""
    }

    /// A frame's text as a terminal would show it: the escape sequences dropped, one line a row.
    static func screenText(_ frame: String) -> [String] {
        var text = ""
        var escape = false
        for scalar in frame.unicodeScalars {
            if escape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { escape = false }
            } else if scalar == "\u{1B}" {
                escape = true
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text.components(separatedBy: "\r\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }
}

@Suite struct ExpectReportTests {
    func screen() -> CellGrid {
        var grid = CellGrid(size: Size(cols: 24, rows: 3))
        grid.put("Account access", at: Point(x: 2, y: 0), style: .plain)
        grid.put("Phone updated", at: Point(x: 2, y: 1), style: .plain)
        return grid
    }

    @Test func aFailedExpectStandsBesideTheClosestRowWithTheDifferencesMarked() {
        let report = ExpectReport.render(screen(), check: .expect("Phone upgraded"))
        #expect(
            report == """
                      screen as drawn          │ expected
                  1 │   Account access         │
                > 2 │   Phone updated          │   Phone upgraded
                    │                          │           ^^^^^^
                  3 │                          │

                """)
    }

    @Test func aFailedExpectNotMarksWhatIsThere() {
        let report = ExpectReport.render(screen(), check: .expectNot("access"))
        #expect(report.contains("> 1 │   Account access         │           access\n"))
        #expect(report.contains("    │                          │           ^^^^^^\n"))
        #expect(report.hasPrefix("      screen as drawn          │ not expected\n"))
    }
}
