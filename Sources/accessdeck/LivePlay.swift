import AccessApp
import AccessBackend
import CursesDriver
import Foundation
import TerminalKit

/// `accessdeck play TAPE --live`: the tape replayed in this terminal on the app's real store and the
/// embedded backend, slow enough to follow. The backend's clock moves only with the tape (`wait N`
/// moves it by N while N / speed seconds pass), so countdowns read as they did when recorded.
/// `expect` lines are checked against the screen at the tape's size and reported at the end.
struct LivePlay {
    let tape: Tape
    let backendOptions: BackendOptions
    let appearance: AppearanceOptions
    let speed: Double

    /// Real time between two steps that had no pause between them, so each key can be seen.
    static let beat: TimeInterval = 0.15
    /// How long a step may wait for its replies before the replay gives up on it.
    static let settleLimit: Duration = .seconds(30)

    /// q or Ctrl+C pressed during the replay.
    struct Stopped: Error {}

    func run() async throws -> [TapeFailure] {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw RuntimeError("--live needs a terminal; without it `accessdeck play` replays headless")
        }
        _ = try TerminalType.resolve(environment: ProcessInfo.processInfo.environment).get()
        let connection = try await BackendConnection.open(backendOptions, frozenClock: true)
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(
                options: CursesTerminal.resolveOptions(
                    theme: appearance.theme, asciiFlag: appearance.ascii,
                    environment: ProcessInfo.processInfo.environment))
        } catch {
            await connection.close()
            throw error
        }
        let outcome: Result<[TapeFailure], any Error>
        do {
            outcome = .success(try await replay(on: terminal, connection))
        } catch {
            outcome = .failure(error)
        }
        terminal.shutdown()
        await connection.close()
        return try outcome.get()
    }

    private func replay(on terminal: CursesTerminal, _ connection: BackendConnection) async throws -> [TapeFailure] {
        var state = AppState(
            root: connection.root, now: connection.clock.now(),
            options: AppOptions(
                platform: appearance.platform ?? .ios, ascii: terminal.options.ascii, hasReferenceBackend: true))
        state.options.backendURL = connection.baseURL
        state.console.scenario = backendOptions.scenario
        let performer = ClientPerformer(
            client: connection.client, cache: connection.cache, embedded: connection.embedded)
        let backend = ReferenceReplayBackend(
            performer: performer, clock: connection.clock,
            passwords: { Fixtures.password(ofScenario: $0).map { Secret($0) } })
        let store = Store(state: state, clock: connection.clock, services: TerminalServices(), performer: performer) {
            [waker = terminal.waker] in waker.wake()
        }
        defer { store.stop() }
        let screen = Screen(terminal: terminal, store: store)
        store.send(.input(.resize(tape.size)))
        store.send(.started)
        try screen.settle(line: 0)
        if let id = tape.startAt {
            store.send(.startAt(id))
            try screen.settle(line: 0)
            if let problem = StartAt.missed(id, on: store.state) { throw TapeFailure(line: 0, message: problem) }
        }
        var failures: [TapeFailure] = []
        for entry in tape.steps {
            guard !store.isQuitting else { break }
            let fail = { (message: String) in TapeFailure(line: entry.line, message: message) }
            do {
                switch entry.step {
                case .input(let event):
                    try screen.pause(Self.beat / speed)
                    store.send(.input(event))
                    try screen.settle(line: entry.line)
                case .wait(let seconds):
                    try await passTime(seconds, backend: backend, screen: screen, line: entry.line)
                case .screen:
                    try screen.pause(1 / speed)
                case .expect(let text):
                    if !screen.tapeText.contains(text) { failures.append(fail("expected \(quoted(text))")) }
                case .expectNot(let text):
                    if screen.tapeText.contains(text) { failures.append(fail("did not expect \(quoted(text))")) }
                case .expectTitle, .expectRow, .expectRequest, .expectNoRequest:
                    let frame = renderFrame(store.state, size: tape.size)
                    if let failure = await TapeReplay.failure(of: entry, on: frame, backend: backend) {
                        failures.append(TapeFailure(line: failure.line, message: failure.message))
                    }
                case .clock(let move):
                    store.send(.moveClock(move))
                    try screen.settle(line: entry.line)
                case .scenario(let name):
                    store.send(.switchScenario(name))
                    try screen.settle(line: entry.line)
                case .fault(let words):
                    guard case .script(let script) = FaultScript.parse(words) else { throw fail("fault: \(words)") }
                    store.send(.setFaults(script.settings, label: "Fault on: \(script.title)"))
                    try screen.settle(line: entry.line)
                case .code:
                    let code: String
                    do {
                        code = try await backend.codeToType(into: store.state.secretEntry)
                    } catch let failure as TapeFailure {
                        throw fail(failure.message)
                    }
                    for digit in code {
                        try screen.pause(Self.beat / speed)
                        store.send(.input(.key(.character(digit))))
                        try screen.settle(line: entry.line)
                    }
                case .scenarioPassword:
                    let password = try TapeReplay.scenarioPassword(
                        on: store.state, backend: backend, line: entry.line)
                    for character in password.value {
                        try screen.pause(Self.beat / speed)
                        store.send(.input(.key(.character(character))))
                        try screen.settle(line: entry.line)
                    }
                }
            } catch is Stopped {
                failures.append(fail("stopped here (q or Ctrl+C); the lines after it were not replayed"))
                return failures
            }
        }
        return failures
    }

    /// `wait N`: N seconds of the backend's clock in N / speed seconds of real time, a tenth of a
    /// second at a time, so countdowns tick on screen.
    private func passTime(
        _ seconds: TimeInterval, backend: ReferenceReplayBackend, screen: Screen, line: Int
    ) async throws {
        var left = seconds
        while left > 0 {
            let slice = min(left, 0.1 * speed)
            do {
                try await backend.advanceClock(by: slice)
            } catch {
                throw TapeFailure(line: line, message: "wait: the backend's clock could not be moved (\(error))")
            }
            left -= slice
            try screen.pause(slice / speed)
        }
        try screen.settle(line: line)
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The terminal and the store between steps: painting, watching for q, waiting for replies.
    struct Screen {
        let terminal: CursesTerminal
        let store: Store

        /// The screen as `expect` reads it: at the tape's size, whatever the terminal's.
        var tapeText: String {
            let state = store.state
            return render(state, size: state.size ?? .standard).text()
        }

        /// Paints and reads the terminal for `seconds`; q or Ctrl+C stops the replay.
        func pause(_ seconds: TimeInterval) throws {
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
            repeat {
                terminal.paint(render(store.state, size: terminal.size))
                let left = clock.now.duration(to: deadline)
                switch terminal.nextEvent(timeout: max(.zero, min(left, .milliseconds(50)))) {
                case .key(.character("q")), .key(.control("c")): throw Stopped()
                default: break
                }
            } while clock.now < deadline
        }

        /// Waits until every request sent has had its reply handled.
        func settle(line: Int) throws {
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: LivePlay.settleLimit)
            while store.requestsInFlight > 0 {
                guard clock.now < deadline else {
                    throw TapeFailure(line: line, message: "the backend did not answer within 30 s")
                }
                try pause(0.02)
            }
            terminal.paint(render(store.state, size: terminal.size))
        }
    }
}
