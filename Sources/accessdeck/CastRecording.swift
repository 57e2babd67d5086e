import AccessApp
import Foundation
import TerminalKit

/// `accessdeck run --cast FILE`: the session as an asciicast v2 file, a frame each time the screen
/// changes, on real elapsed time. It holds the screen as drawn, never the keys, and draws codes and
/// passwords as dots (`AppState.concealedForRecording`). Every line goes to the file at once, so a
/// crash keeps what came before it. The file is the user's alone (0600), as a tape is.
final class CastRecording {
    private let handle: FileHandle
    private var recorder: AsciicastRecorder?
    private var startedAt = Date()

    /// Creates (or empties) the file before the terminal is taken over, so a bad path is a plain error.
    init(path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RuntimeError("cannot write the recording '\(path)': \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, 0o600)
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The header, once the first frame is up: times count from here.
    func begin(size: Size, scenario: String?, theme: Theme) {
        startedAt = Date()
        let title = "AccessDeck" + (scenario.map { " · scenario \($0)" } ?? "")
        write([AsciicastRecorder.header(size: size, startedAt: startedAt, title: title)])
        recorder = AsciicastRecorder(theme: theme)
    }

    /// The screen about to be painted; nothing is written when it has not changed.
    func frame(_ state: AppState, size: Size) {
        guard var current = recorder else { return }
        var grid = render(state.concealedForRecording, size: size)
        if state.options.ascii { grid = grid.asciiFallback() }
        write(current.record(grid, at: Date().timeIntervalSince(startedAt)))
        recorder = current
    }

    private func write(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        // A full disk must not take the session down with it.
        try? handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
    }
}
