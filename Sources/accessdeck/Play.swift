import AccessApp
import ArgumentParser
import Foundation
import TerminalKit

/// `accessdeck play TAPE`: replay a tape against the embedded reference backend, headless and on
/// the backend's clock (or `--live` in the terminal), checking its `expect` lines.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Replay a key tape against the embedded reference backend and check its expect lines (fixtures/tapes/README.md)."
    )

    @Argument(help: "A .tape file.")
    var tape: String

    @Option(help: "Scenario to start on; default: the tape's own `scenario` line, else default.")
    var scenario: String?

    @Flag(help: "Print the screen after every step, not only at `screen` steps and the end.")
    var dump = false

    @Flag(
        help:
            "Replay in this terminal, with the tape's pauses (divided by --speed); expect lines are reported at the end."
    )
    var live = false

    @Option(help: "With --live: how many times faster than recorded (0.1 to 100).")
    var speed: Double = 1

    @Flag(help: "No backend: every request is answered offline (the replay of old tapes, on a clock of its own).")
    var noBackend = false

    @Option(
        help: ArgumentHelp(
            "Also write the replay as an asciicast v2 file (asciinema, agg), a frame after each step, a steady beat apart; codes and passwords drawn as dots.",
            valueName: "FILE.cast"))
    var cast: String?

    @Option(
        help: ArgumentHelp(
            "Also write the screen after each tape line as an SVG into this folder (created if missing): 001-line-3.svg…",
            valueName: "DIR"))
    var svgDir: String?

    @OptionGroup var appearance: AppearanceOptions

    func validate() throws {
        if live, cast != nil || svgDir != nil {
            throw ValidationError("--cast and --svg-dir are for the headless replay; drop --live")
        }
        if let scenario { try ScenarioArgument.validate(scenario) }
        guard (0.1...100).contains(speed) else { throw ValidationError("--speed must be 0.1 to 100") }
        if live, noBackend { throw ValidationError("--live replays on the embedded backend; drop --no-backend") }
        if !live, speed != 1 { throw ValidationError("--speed is for --live") }
        if noBackend, scenario != nil { throw ValidationError("--scenario needs the backend; drop --no-backend") }
    }

    func run() async throws {
        let parsed = try readTape()
        if noBackend {
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let state = AppState(now: start, options: AppOptions(platform: appearance.platform ?? .ios))
            var replay = TapeReplay(state: state, size: parsed.size, backend: OfflineReplayBackend(now: start))
            try await runSteps(of: parsed, on: &replay)
            return
        }
        let scenarioName = scenario ?? parsed.scenario ?? "default"
        try ScenarioArgument.validate(scenarioName)
        let options = try BackendOptions.parse(["--scenario", scenarioName])
        if live {
            let failures: [TapeFailure]
            do {
                failures = try await LivePlay(
                    tape: parsed, backendOptions: options, appearance: appearance, speed: speed
                ).run()
            } catch let failure as TapeFailure {
                throw RuntimeError("\(tape): \(failure)")
            }
            try report(failures)
            return
        }
        let connection = try await BackendConnection.open(options, frozenClock: true)
        do {
            var state = AppState(
                root: connection.root, now: connection.clock.now(),
                options: AppOptions(platform: appearance.platform ?? .ios, hasReferenceBackend: true))
            state.options.backendURL = connection.baseURL
            state.console.scenario = scenarioName
            let backend = ReferenceReplayBackend(
                performer: ClientPerformer(
                    client: connection.client, cache: connection.cache, embedded: connection.embedded),
                clock: connection.clock)
            var replay = TapeReplay(state: state, size: parsed.size, backend: backend)
            try await replay.send(.started)
            try await runSteps(of: parsed, on: &replay)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    private func runSteps(of parsed: Tape, on replay: inout TapeReplay) async throws {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        var film =
            cast == nil && svgDir == nil
            ? nil
            : TapeFilm(
                size: parsed.size, title: "AccessDeck · \(URL(fileURLWithPath: tape).lastPathComponent)",
                theme: .named(appearance.theme ?? (noColor ? .mono : .dark)), startedAt: Date())
        film?.start(replay.runtime.state, size: replay.runtime.size)
        defer { if let film { save(film) } }
        do {
            try await replay.play(
                parsed, everyStep: dump,
                afterStep: { entry, runtime, lineDone in
                    film?.step(entry, runtime.state, size: runtime.size, lineDone: lineDone)
                },
                onScreen: { caption, grid in printScreen(caption, grid) })
        } catch let failure as TapeFailure {
            let printed = replay.runtime.printedScreen
            if let check = failure.check {
                print(
                    "── line \(failure.line) (failed) " + String(repeating: "─", count: max(0, printed.size.cols - 18)))
                print(
                    ExpectReport.render(appearance.ascii ? printed.asciiFallback() : printed, check: check),
                    terminator: "")
            } else {
                printScreen("line \(failure.line) (failed)", printed)
            }
            // The frames go to stdout, buffered when it is a pipe or a file; the failure to stderr, at once. With
            // `2>&1` it landed inside a frame (issue 48 item 15): the frames first, then the failure.
            fflush(nil)  // every stream; `stdout` itself is shared mutable state to Swift 6
            throw RuntimeError("\(tape): \(failure)")
        }
        printScreen(replay.runtime.quit ? "end (quit)" : "end", replay.runtime.printedScreen)
    }

    /// The film so far, also after a failed step: a recording of a failure is worth sharing too.
    private func save(_ film: TapeFilm) {
        do {
            if let cast {
                try Data(film.castLines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: cast))
            }
            if let svgDir {
                let folder = URL(fileURLWithPath: svgDir)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for picture in film.pictures {
                    try Data(picture.svg.utf8).write(to: folder.appendingPathComponent(picture.name))
                }
            }
        } catch {
            FileHandle.standardError.write(Data("accessdeck: could not write the recording: \(error)\n".utf8))
        }
    }

    private func readTape() throws -> Tape {
        let text: String
        do {
            text = try String(contentsOfFile: tape, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read tape '\(tape)'")
        }
        do {
            return try Tape(parsing: text)
        } catch let error as Tape.ParseError {
            throw ValidationError("\(tape): \(error)")
        }
    }

    /// After a live replay, on the restored terminal: every failed expect (and where q stopped it), one a line.
    private func report(_ failures: [TapeFailure]) throws {
        guard !failures.isEmpty else { return }
        fflush(nil)
        for failure in failures {
            FileHandle.standardError.write(Data("\(tape): \(failure)\n".utf8))
        }
        throw RuntimeError("\(tape): the live replay did not pass (\(failures.count) line(s) above)")
    }

    private func printScreen(_ caption: String, _ grid: CellGrid) {
        print("── \(caption) " + String(repeating: "─", count: max(0, grid.size.cols - 4 - caption.count)))
        print((appearance.ascii ? grid.asciiFallback() : grid).text())
    }
}
