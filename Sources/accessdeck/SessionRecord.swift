import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import Foundation
import Synchronization
import TerminalKit

/// The session on the embedded backend, kept in memory for Ctrl+P "Save bug report" (issue 51 item 5): its
/// tape as `--record` writes it, its cast as `--cast` writes it, and the world it started on. What the tape
/// and the cast hold is what those files hold: no typed code or password, codes and passwords drawn as dots.
final class SessionRecord: Sendable {
    /// Cast lines kept at most (a frame each, a few KiB on a large screen): a session of hours stops adding frames
    /// at some hundred MiB, and the tape, which is small, goes on.
    static let mostCastLines = 20_000

    private struct Kept {
        var tape: TapeRecorder?
        var tapeLines: [String] = []
        var cast: AsciicastRecorder?
        var castLines: [String] = []
        var castStartedAt = Date()
    }
    private let kept = Mutex(Kept())
    let startWorld: (file: Data, at: Date)
    let scenario: String

    init(startWorld: (file: Data, at: Date), scenario: String) {
        self.startWorld = startWorld
        self.scenario = scenario
    }

    /// The headers, once the first frame is up, as `TapeRecording.begin` and `CastRecording.begin` write them.
    func begin(size: Size, theme: Theme) {
        let now = Date()
        kept.withLock { kept in
            kept.tapeLines = TapeRecorder.header(
                recordedAt: now, version: AppVersion.current, scenario: scenario, size: size)
            // The header's first line names `--record`; this tape is the app's own, for the report.
            kept.tapeLines[0] =
                "# The session of a bug report (accessdeck \(AppVersion.current)), from "
                + "\(ISO8601DateFormatter().string(from: now)), scenario \(scenario)."
            kept.tape = TapeRecorder(startedAt: now)
            kept.castStartedAt = now
            kept.castLines = [
                AsciicastRecorder.header(size: size, startedAt: now, title: "AccessDeck · scenario \(scenario)")
            ]
            kept.cast = AsciicastRecorder(theme: theme)
        }
    }

    func record(_ event: InputEvent, into entry: SecretEntry?, scenario: String?) {
        // Only the password of a scenario from this machine's fixtures: the one the embedded backend loaded.
        let password = entry == .password ? scenario.flatMap { Fixtures.password(ofScenario: $0) } : nil
        kept.withLock { kept in
            guard var recorder = kept.tape else { return }
            kept.tapeLines += recorder.record(
                event, at: Date(), into: entry, scenarioPassword: password.map { Secret($0) })
            kept.tape = recorder
        }
    }

    /// The screen about to be painted.
    func frame(_ state: AppState, size: Size) {
        guard kept.withLock({ $0.cast != nil && $0.castLines.count < Self.mostCastLines }) else { return }
        var grid = render(state.concealedForRecording, size: size)
        if state.options.ascii { grid = grid.asciiFallback() }
        let now = Date()
        kept.withLock { kept in
            guard var recorder = kept.cast else { return }
            kept.castLines += recorder.record(grid, at: now.timeIntervalSince(kept.castStartedAt))
            kept.cast = recorder
        }
    }

    /// The tape so far, typing still held included, and the cast so far.
    var texts: (tape: String, cast: String) {
        kept.withLock { kept in
            var recorder = kept.tape
            let tape = kept.tapeLines + (recorder?.finish() ?? [])
            return (tape.map { $0 + "\n" }.joined(), kept.castLines.map { $0 + "\n" }.joined())
        }
    }

    /// The report of this session from its backend, written as `accessdeck-bug-report-TIME.zip` in the working
    /// directory (the user's alone, as a tape is); the name written, or why not.
    func save(screen: String, client: AccountClient) async -> Result<String, ExportFailure> {
        let (tape, cast) = texts
        let session = BugReport.Session(
            tape: tape, cast: cast, screen: screen, startWorld: startWorld.file, startedAt: startWorld.at,
            scenario: scenario, world: WorldNames.defaultWorld,
            backend: "the reference backend inside accessdeck \(AppVersion.current)")
        let archive: Data
        do {
            archive = try await BugReport.archive(of: session, from: client)
        } catch let error as APIError {
            return .failure(ExportFailure("the backend did not answer (\(error.message))"))
        } catch {
            return .failure(ExportFailure("\(error)"))
        }
        let name = "accessdeck-bug-report-\(Self.stamp(Date())).zip"
        return Self.writePrivate(archive, to: name).map { name }
    }

    /// A new file only the user may read: never over an existing one.
    static func writePrivate(_ data: Data, to path: String) -> Result<Void, ExportFailure> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(ExportFailure(String(cString: strerror(errno)))) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            return .success(())
        } catch {
            return .failure(ExportFailure((error as NSError).localizedDescription))
        }
    }

    /// 20261129-201502, on the wall clock: the backend's may be days ahead.
    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
