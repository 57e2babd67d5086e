import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

/// `accessdeck bug-report OUT.zip --tape FILE` (issue 51 item 5): a tape recorded with `--record` made into a bug
/// report by replaying it on the embedded backend. The running app makes its own with Ctrl+P "Save bug report":
/// a separate command cannot reach into a running session, so this one makes the session again from its tape.
struct BugReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bug-report",
        abstract:
            "Make one bug report file of a tape: replays it on the embedded backend and packs the tape, the world, the cast, the journal, the timeline and the versions (docs/qa-guide.md).",
        discussion:
            "The running app saves the report of its own session with Ctrl+P \"Save bug report\"; `accessdeck open-report FILE` opens either."
    )

    @Argument(help: ArgumentHelp("The report to write; an existing file is not overwritten.", valueName: "OUT.zip"))
    var output: String

    @Option(help: "The tape to pack (`accessdeck run --record FILE`), packed as it is.")
    var tape: String

    @Option(help: "Scenario to start on; default: the tape's own `scenario` line, else default.")
    var scenario: String?

    func validate() throws {
        guard output.lowercased().hasSuffix(".zip") else {
            throw ValidationError("the report is a .zip, not '\(output)'")
        }
        if let scenario { try ScenarioArgument.validate(scenario) }
    }

    func run() async throws {
        let text: String
        do {
            text = try String(contentsOfFile: tape, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read tape '\(tape)'")
        }
        let parsed: Tape
        do {
            parsed = try Tape(parsing: text)
        } catch let error as Tape.ParseError {
            throw ValidationError("\(tape): \(error)")
        }
        let scenarioName = scenario ?? parsed.scenario ?? "default"
        try ScenarioArgument.validate(scenarioName)
        let connection = try await BackendConnection.open(
            try BackendOptions.parse(["--scenario", scenarioName]), frozenClock: true, keepStartWorld: true)
        let archive: Data
        let stopped: TapeFailure?
        do {
            (archive, stopped) = try await report(of: parsed, text: text, scenario: scenarioName, on: connection)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
        if case .failure(let failure) = SessionRecord.writePrivate(archive, to: output) {
            throw RuntimeError("cannot write '\(output)': \(failure.message)")
        }
        print("Wrote \(output): open it with `accessdeck open-report \(output)`.")
        if let stopped {
            throw RuntimeError("\(tape): \(stopped) (the report holds the screen where the replay stopped)")
        }
    }

    /// The report, and the failure that stopped the replay if one did: a report of a tape that fails is still one.
    private func report(
        of parsed: Tape, text: String, scenario: String, on connection: BackendConnection
    ) async throws -> (Data, TapeFailure?) {
        guard let startWorld = connection.startWorld else { throw RuntimeError("the backend kept no starting world") }
        var replay = try await Play.startReplay(
            size: parsed.size, on: connection, scenario: scenario, platform: nil, startAt: parsed.startAt, source: tape)
        var film = TapeFilm(
            size: parsed.size, title: "AccessDeck · \(URL(fileURLWithPath: tape).lastPathComponent)",
            theme: .named(.dark), startedAt: Date())
        film.start(replay.runtime.state, size: replay.runtime.size)
        var stopped: TapeFailure?
        do {
            try await replay.play(
                parsed,
                afterStep: { entry, runtime, lineDone in
                    film.step(entry, runtime.state, size: runtime.size, lineDone: lineDone)
                },
                onScreen: { _, _ in })
        } catch let failure as TapeFailure {
            stopped = failure
        }
        let session = BugReport.Session(
            tape: text, cast: film.castLines.map { $0 + "\n" }.joined(),
            screen: OpenReport.screenText(replay.runtime),
            startWorld: startWorld.file, startedAt: startWorld.at, scenario: scenario, world: WorldNames.defaultWorld,
            backend: "the reference backend inside accessdeck \(AppVersion.current) (accessdeck bug-report)")
        return (try await BugReport.archive(of: session, from: connection.client), stopped)
    }
}

/// `accessdeck open-report FILE.zip` (issue 51 item 5): the report unpacked into a temporary folder, the embedded
/// backend started on its starting world with the clock where the session began, the tape replayed, and the app
/// left on the screen the report was made on; `--headless` prints that screen instead.
struct OpenReport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-report",
        abstract:
            "Open a bug report: load its world in the embedded backend, replay its tape and carry on from the same screen."
    )

    @Argument(
        help: ArgumentHelp(
            "A report from Ctrl+P \"Save bug report\" or `accessdeck bug-report`.", valueName: "FILE.zip"))
    var report: String

    @Flag(help: "Print the screen the replay lands on, as text, and exit (the report's screen.txt shows the original).")
    var headless = false

    @OptionGroup var appearance: AppearanceOptions
    @OptionGroup var mouse: MouseOptions

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: report) else {
            throw RuntimeError("cannot read '\(report)'")
        }
        let entries: [ZipArchive.Entry]
        let manifest: BugReport.Manifest
        do {
            entries = try ZipArchive.read(data)
            manifest = try BugReport.manifest(in: entries)
        } catch {
            throw RuntimeError("\(report): \(error)")
        }
        let folder = try Self.unpack(entries)
        FileHandle.standardError.write(Data("accessdeck: the report is unpacked in \(folder.path)\n".utf8))
        do {
            try await open(manifest, in: folder)
        } catch {
            if headless { try? FileManager.default.removeItem(at: folder) }
            throw error
        }
        if headless { try? FileManager.default.removeItem(at: folder) }
    }

    private func open(_ manifest: BugReport.Manifest, in folder: URL) async throws {
        let tape: Tape
        do {
            tape = try Tape(
                parsing: String(
                    decoding: try Data(contentsOf: folder.appendingPathComponent(BugReport.File.tape)), as: UTF8.self))
        } catch {
            throw RuntimeError("\(report): its tape does not read: \(error)")
        }
        // The replay writes to its own copy: the unpacked starting world stays as it came.
        let database = folder.appendingPathComponent("replay.sqlite")
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent(BugReport.File.startWorld), to: database)
        // The world keeps the scenario it holds; the name only has to be one this machine knows.
        let known = Fixtures.scenarioNames().contains(manifest.scenario)
        let connection = try await BackendConnection.open(
            try BackendOptions.parse(["--scenario", known ? manifest.scenario : "default"]), frozenClock: true,
            report: (database.path, manifest.startedAt))
        let replay: TapeReplay
        do {
            var replaying = try await Play.startReplay(
                size: tape.size, on: connection, scenario: manifest.scenario, platform: appearance.platform,
                startAt: tape.startAt, source: report)
            try await replaying.play(tape, onScreen: { _, _ in })
            replay = replaying
        } catch let failure as TapeFailure {
            await connection.close()
            throw RuntimeError("\(report): the replay stopped at its tape's \(failure)")
        } catch {
            await connection.close()
            throw error
        }
        guard !headless else {
            await connection.close()
            print(Self.screenText(replay.runtime), terminator: "")
            return
        }
        // The app takes the connection over, and closes it.
        let code = try await TerminalApp(
            appearance: appearance, mouse: !mouse.noMouse,
            backendOptions: try BackendOptions.parse(["--scenario", known ? manifest.scenario : "default"]),
            regionFlag: nil, prepared: (connection, replay.runtime.state)
        ).run()
        if code != 0 { throw ExitCode(code) }
    }

    /// The screen as a report shows it: at the tape's size, codes and passwords as dots.
    static func screenText(_ runtime: HeadlessRuntime) -> String {
        render(runtime.state.concealedForRecording, size: runtime.size).text()
    }

    /// Every entry into a new private folder under the temporary directory (the reader let no name out of it).
    static func unpack(_ entries: [ZipArchive.Entry]) throws -> URL {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-report-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RuntimeError("cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        let folder = URL(fileURLWithPath: String(cString: made))
        for entry in entries {
            let file = folder.appendingPathComponent(entry.name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            if case .failure(let failure) = SessionRecord.writePrivate(entry.data, to: file.path) {
                throw RuntimeError("cannot unpack \(entry.name): \(failure.message)")
            }
        }
        return folder
    }
}
