import AccessApp
import AccessBackend
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

    @Option(
        help: ArgumentHelp(
            "Start on this screen with its state in place, reached by the backend calls a walk there makes (SCREEN or SCREEN:STATE); default: the tape's own `start-at` line.",
            valueName: "SCREEN"))
    var startAt: String?

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

    @Option(help: ArgumentHelp("Also write the replay as an animated GIF (ffmpeg).", valueName: "FILE.gif"))
    var gif: String?

    @Option(help: ArgumentHelp("Also write the replay as an MP4 video (H.264, ffmpeg).", valueName: "FILE.mp4"))
    var mp4: String?

    @Option(help: ArgumentHelp("Also write the replay as a WebM video (VP9, ffmpeg).", valueName: "FILE.webm"))
    var webm: String?

    @Option(
        help: ArgumentHelp(
            "Also write the screen after each tape line as a PNG into this folder (rsvg-convert): 001-line-3.png…",
            valueName: "DIR"))
    var pngDir: String?

    @Option(
        help: ArgumentHelp(
            "In the recordings: how long each key and typed character takes, in ms (10 to 5000).", valueName: "ms"))
    var typingSpeed: Int = Int(TapeFilm.defaultBeat * 1000)

    @Option(help: "Frames a second of --gif, --mp4 and --webm (1 to 60).")
    var frameRate: Int = 25

    @Option(help: "Pixels per picture pixel of --gif, --mp4, --webm and --png-dir (0.5 to 4; 2 for slides).")
    var scale: Double = 1

    @Option(help: "Replay at this terminal size, COLSxROWS, instead of the tape's own `size` line.")
    var size: String?

    @Flag(help: "In --gif, --mp4, --webm and --png-dir: draw the screen in a window with a title bar.")
    var frame = false

    @Option(help: "The recordings' title (the window's with --frame); default: AccessDeck · the tape's file name.")
    var title: String?

    @OptionGroup var appearance: AppearanceOptions

    /// Whether any recording is asked for.
    private var records: Bool { cast != nil || svgDir != nil || pngDir != nil || !films.isEmpty }

    private var films: [(FilmExport.Kind, URL)] {
        [(FilmExport.Kind.gif, gif), (.mp4, mp4), (.webm, webm)].compactMap { kind, path in
            path.map { (kind, URL(fileURLWithPath: $0)) }
        }
    }

    func validate() throws {
        if live, records {
            throw ValidationError(
                "--cast, --svg-dir, --png-dir, --gif, --mp4 and --webm are for the headless replay; drop --live")
        }
        guard (10...5000).contains(typingSpeed) else { throw ValidationError("--typing-speed must be 10 to 5000 ms") }
        guard (1...60).contains(frameRate) else { throw ValidationError("--frame-rate must be 1 to 60") }
        guard (0.5...4).contains(scale) else { throw ValidationError("--scale must be 0.5 to 4") }
        if let size, Size(parsing: size) == nil {
            throw ValidationError("--size takes COLSxROWS, such as 100x30, not '\(size)'")
        }
        for (kind, path) in [("gif", gif), ("mp4", mp4), ("webm", webm)] {
            if let path, !path.lowercased().hasSuffix(".\(kind)") {
                throw ValidationError("--\(kind) writes a .\(kind) file, not '\(path)'")
            }
        }
        if let scenario { try ScenarioArgument.validate(scenario) }
        guard (0.1...100).contains(speed) else { throw ValidationError("--speed must be 0.1 to 100") }
        if live, noBackend { throw ValidationError("--live replays on the embedded backend; drop --no-backend") }
        if !live, speed != 1 { throw ValidationError("--speed is for --live") }
        if noBackend, scenario != nil { throw ValidationError("--scenario needs the backend; drop --no-backend") }
        if let startAt {
            if noBackend { throw ValidationError("--start-at needs the backend; drop --no-backend") }
            if case .failure(let problem) = StartAt.resolve(startAt) { throw ValidationError(problem.description) }
        }
    }

    func run() async throws {
        var parsed = try readTape()
        if let size { parsed.size = Size(parsing: size)! }
        if let startAt, case .success(let id) = StartAt.resolve(startAt) { parsed.startAt = id }
        if noBackend {
            if parsed.startAt != nil { throw ValidationError("\(tape): start-at needs the backend; drop --no-backend") }
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
            var replay = try await Self.startReplay(
                size: parsed.size, on: connection, scenario: scenarioName, platform: appearance.platform,
                startAt: parsed.startAt, source: tape)
            try await runSteps(of: parsed, on: &replay)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    /// A headless replay on the embedded backend of `connection`, started as the app starts: `play`, and
    /// `bug-report` and `open-report` (issue 51 item 5). `secret scenario` types the scenario's fixture password.
    static func startReplay(
        size: Size, on connection: BackendConnection, scenario: String, platform: AppOptions.Platform?,
        startAt: String?, source: String
    ) async throws -> TapeReplay {
        var state = AppState(
            root: connection.root, now: connection.clock.now(),
            options: AppOptions(platform: platform ?? .ios, hasReferenceBackend: true))
        state.options.backendURL = connection.baseURL
        state.console.scenario = scenario
        let backend = ReferenceReplayBackend(
            performer: ClientPerformer(
                client: connection.client, cache: connection.cache, embedded: connection.embedded),
            clock: connection.clock, passwords: { Fixtures.password(ofScenario: $0).map { Secret($0) } })
        var replay = TapeReplay(state: state, size: size, backend: backend)
        try await replay.send(.started)
        if let id = startAt {
            try await replay.send(.startAt(id))
            if let problem = StartAt.missed(id, on: replay.runtime.state) {
                throw RuntimeError("\(source): \(problem)")
            }
        }
        return replay
    }

    private var theme: Theme {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        return .named(appearance.theme ?? (noColor ? .mono : .dark))
    }

    private func runSteps(of parsed: Tape, on replay: inout TapeReplay) async throws {
        var film =
            records
            ? TapeFilm(
                size: parsed.size, title: title ?? "AccessDeck · \(URL(fileURLWithPath: tape).lastPathComponent)",
                theme: theme, startedAt: Date(), beat: Double(typingSpeed) / 1000)
            : nil
        film?.start(replay.runtime.state, size: replay.runtime.size)
        do {
            try await replay.play(
                parsed, everyStep: dump,
                afterStep: { entry, runtime, lineDone in
                    film?.step(entry, runtime.state, size: runtime.size, lineDone: lineDone)
                },
                onScreen: { caption, grid in printScreen(caption, grid) })
        } catch let failure as TapeFailure {
            // A recording of a failure is worth sharing too; the failure is what this run reports.
            if let film { try? save(film) }
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
            // A request expectation's journal rows: the error's one line on stderr says what failed, and these
            // what the journal held instead.
            let details = failure.message.split(separator: "\n").dropFirst()
            if !details.isEmpty { print(details.joined(separator: "\n")) }
            // The frames go to stdout, buffered when it is a pipe or a file; the failure to stderr, at once. With
            // `2>&1` it landed inside a frame (issue 48 item 15): the frames first, then the failure.
            fflush(nil)  // every stream; `stdout` itself is shared mutable state to Swift 6
            throw RuntimeError("\(tape): \(failure)")
        } catch {
            if let film { try? save(film) }
            throw error
        }
        printScreen(replay.runtime.quit ? "end (quit)" : "end", replay.runtime.printedScreen)
        if let film { try save(film) }
    }

    /// The recordings asked for, of the film so far.
    private func save(_ film: TapeFilm) throws {
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
            var look = FilmLook(theme: theme, scale: scale, frameRate: frameRate, framed: frame)
            if pngDir != nil || !films.isEmpty {
                look.emoji = EmojiPictures.pictures(
                    of: film.frames.reduce(into: []) { $0.formUnion(GridExport.emojiGraphemes(in: $1.grid)) })
            }
            if let pngDir { try FilmExport.writeLinePictures(film, look: look, to: URL(fileURLWithPath: pngDir)) }
            try FilmExport.write(film, look: look, outputs: films)
        } catch {
            throw RuntimeError("could not write the recording: \(error)")
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
