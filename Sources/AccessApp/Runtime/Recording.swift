import Foundation
import TerminalKit

extension AppState {
    /// The state as a recording draws it (`--cast`, `--svg-dir`): every screen's secrets concealed
    /// (`ScreenModel.concealingSecrets`), the outbox panel closed, since it lists the codes and links the
    /// backend sent, and the palette's authenticator code hidden. Only the mock outbox may show those, and a
    /// recording is shared.
    public var concealedForRecording: AppState {
        var copy = concealingScreenSecrets
        if copy.overlay?.as(OutboxPanel.self) != nil { copy.overlay = nil }
        // The palette's authenticator code is the outbox's kind of secret: shown live, never recorded.
        if let toast = copy.toast, toast.message.hasPrefix(AuthenticatorCode.toastPrefix) {
            copy.toast?.message = AuthenticatorCode.toastPrefix + "••••••"
        }
        return copy
    }

    /// The state with every screen's secrets concealed (code digits, passwords shown with Ctrl+R) and the
    /// outbox panel left as it is: what `play` prints, since the mock outbox is the one place codes may show.
    public var concealingScreenSecrets: AppState {
        var copy = self
        copy.stack = stack.map { AnyScreen($0.base.concealingSecrets()) }
        return copy
    }
}

/// What `accessdeck play --cast FILE --svg-dir DIR` (and `--gif`, `--mp4`, `--webm`, `--png-dir`) writes while a
/// tape replays: the screen after each tape line as an asciicast frame and as one SVG, and every screen with the time
/// it appears, on a steady clock of the tape's own (a beat a step, `wait N` as N seconds), so the same tape gives the
/// same files.
public struct TapeFilm {
    /// The time one step takes in the film unless told otherwise, so each key can be seen.
    public static let defaultBeat: TimeInterval = 0.4

    public private(set) var castLines: [String]
    /// File name (without its extension), tape line and screen, one a tape line, in order: 001-line-3…
    public private(set) var lines: [(name: String, line: Int, grid: CellGrid)] = []
    /// Every screen with the film time it appears at, from 0; a screen the same as the one before is left out.
    public private(set) var frames: [(grid: CellGrid, at: TimeInterval)] = []
    /// The film's length: its last screen stays this long.
    public var duration: TimeInterval { time + beat }
    public let title: String
    private var cast: AsciicastRecorder
    private var time: TimeInterval = 0
    private let theme: Theme
    private let beat: TimeInterval

    public init(size: Size, title: String, theme: Theme, startedAt: Date, beat: TimeInterval = Self.defaultBeat) {
        cast = AsciicastRecorder(theme: theme)
        castLines = [AsciicastRecorder.header(size: size, startedAt: startedAt, title: title)]
        self.theme = theme
        self.title = title
        self.beat = beat
    }

    /// File name and SVG, one a tape line, in order.
    public var pictures: [(name: String, svg: String)] {
        lines.map { ($0.name + ".svg", GridExport.svg($0.grid, theme: theme, title: "\(title) · line \($0.line)")) }
    }

    /// The first screen, before any step.
    public mutating func start(_ state: AppState, size: Size) {
        let grid = Self.frame(state, size: size)
        castLines += cast.record(grid, at: 0)
        frames.append((grid, 0))
    }

    /// The screen after a step. `lineDone`: the step was the last of its tape line (`type abc` is
    /// three steps), which gets its SVG.
    public mutating func step(_ entry: Tape.Entry, _ state: AppState, size: Size, lineDone: Bool) {
        switch entry.step {
        case .wait(let seconds): time += seconds
        case .expect, .expectNot, .expectTitle, .expectRow, .expectRequest, .expectNoRequest: break
        default: time += beat
        }
        let grid = Self.frame(state, size: size)
        castLines += cast.record(grid, at: time)
        if frames.last?.grid != grid { frames.append((grid, time)) }
        if lineDone {
            let number = String(lines.count + 1)
            let name = String(repeating: "0", count: max(0, 3 - number.count)) + number + "-line-\(entry.line)"
            lines.append((name, entry.line, grid))
        }
    }

    static func frame(_ state: AppState, size: Size) -> CellGrid {
        let grid = render(state.concealedForRecording, size: size)
        return state.options.ascii ? grid.asciiFallback() : grid
    }
}
