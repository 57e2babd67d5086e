import AccessApp
import AccessBackend
import Foundation
import TerminalKit

/// `accessdeck run --record FILE`: the session written to a tape as it happens. Every line goes to
/// the file at once (no buffer), so a crash keeps what came before it; only a run of typed
/// characters waits for the next other event. The file is the user's alone (0600).
final class TapeRecording {
    private let handle: FileHandle
    private var recorder: TapeRecorder?

    /// Creates (or empties) the file before the terminal is taken over, so a bad path is a plain error.
    init(path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RuntimeError("cannot write the tape '\(path)': \(String(cString: strerror(errno)))")
        }
        // An existing file keeps its old mode through O_CREAT: a tape is private either way.
        fchmod(descriptor, 0o600)
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The header, once the first frame is up: pauses count from here.
    func begin(size: Size, scenario: String?, startAt: String? = nil) {
        let now = Date()
        write(
            TapeRecorder.header(
                recordedAt: now, version: AppVersion.current, scenario: scenario, size: size, startAt: startAt))
        recorder = TapeRecorder(startedAt: now)
    }

    /// `entry` is where the event is about to go (`AppState.secretEntry`, read before it is sent); `scenario` the
    /// embedded backend's, whose fixture password is written `secret scenario` (nil with `--backend`).
    func record(_ event: InputEvent, into entry: SecretEntry?, scenario: String?) {
        guard var current = recorder else { return }
        let password = entry == .password ? scenario.flatMap { Fixtures.password(ofScenario: $0) } : nil
        write(current.record(event, at: Date(), into: entry, scenarioPassword: password.map { Secret($0) }))
        recorder = current
    }

    func finish() {
        guard var current = recorder else { return }
        write(current.finish())
        recorder = nil
    }

    private func write(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        // A full disk must not take the session down with it.
        try? handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
    }
}
