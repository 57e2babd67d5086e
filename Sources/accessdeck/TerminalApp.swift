import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import CursesDriver
import Foundation
import Logging
import Synchronization
import TerminalKit

/// The interactive app: the backend (embedded unless `--backend`), the store, the terminal,
/// and the loop between them.
struct TerminalApp {
    let appearance: AppearanceOptions
    /// Clicks and the wheel reach the app (`--no-mouse` turns them off).
    let mouse: Bool
    let backendOptions: BackendOptions
    /// `--region`: the country first in the picker; without it, the locale variables' region.
    let regionFlag: String?
    /// `accessdeck open-link URL` with no app running: opened once the app is up.
    var openingLink: String? = nil
    /// `--start-at`: the gallery id whose road the app walks once it knows who is signed in.
    var startAt: String? = nil
    /// `--record FILE`: the session written to a tape as it happens.
    var recording: TapeRecording? = nil
    /// `--cast FILE`: the screen recorded as an asciicast as it changes.
    var castRecording: CastRecording? = nil
    /// `open-report`: a backend open already and the state a replay left on it, to carry on from (issue 51 item
    /// 5). The app closes the connection.
    var prepared: (connection: BackendConnection, state: AppState)? = nil

    func run() async throws -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            if let prepared { await prepared.connection.close() }
            throw RuntimeError(
                "the app needs a terminal; `accessdeck render` and `accessdeck play` print screens as text")
        }
        if let prepared { return try await carryOn(prepared.connection, from: prepared.state) }
        // TERM=dumb, or no terminfo for TERM nor its fallbacks: say so before a backend starts.
        _ = try TerminalType.resolve(environment: ProcessInfo.processInfo.environment).get()
        // The backend starts first, on other threads: starting it (database, scenario, sign-in) takes longer
        // than everything else here, which happens meanwhile.
        let opening = OpeningBackend(backendOptions)
        var options = CursesTerminal.resolveOptions(
            theme: appearance.theme, asciiFlag: appearance.ascii, environment: ProcessInfo.processInfo.environment)
        options.mouse = mouse
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(options: options)
        } catch {
            await opening.abandon()
            throw error
        }
        // Listening from the first frame on: a link `open-link` hands over while the backend starts waits for it.
        let mailbox = LinkMailbox()
        let inbox = LinkInbox.Listener(path: LinkInbox.socketPath()) { link in mailbox.deliver(link) }
        defer { inbox?.stop() }
        // The first frame comes before anything that can wait: the embedded backend's first screen, drawn as it
        // will be once the backend is up (without the backend's URL), and answering keys; a spinner otherwise.
        var starting = Self.firstScreen(backendOptions).map {
            var state = initialState(root: $0, now: Date(), terminal: terminal, deviceRegion: nil)
            state.size = terminal.size
            return StartingScreen(state)
        }
        var spinner = Spinner("Starting\u{2026}")
        paint(starting?.state, or: spinner, on: terminal)
        let started: (connection: BackendConnection, pending: [InputEvent], quit: Bool)
        let deviceRegion: String?
        do {
            deviceRegion = try DeviceRegion.resolve(flag: regionFlag, environment: ProcessInfo.processInfo.environment)
                .get()
            started = try waitForBackend(opening, on: terminal, starting: &starting, spinner: &spinner)
        } catch {
            close(terminal)
            await opening.abandon()
            throw error
        }
        let connection = started.connection
        if started.quit {
            close(terminal)
            await connection.close()
            return 0
        }
        let clock = connection.clock
        var state = initialState(
            root: connection.root, now: clock.now(), terminal: terminal, deviceRegion: deviceRegion)
        state.options.hasReferenceBackend = connection.isReferenceBackend
        state.options.backendURL = connection.baseURL
        state.options.backendIsEmbedded = connection.embedded != nil
        state.options.world = connection.embedded == nil ? WorldNames.world(in: connection.baseURL) : nil
        state.console.scenario = connection.embedded == nil ? nil : backendOptions.scenario
        // `identify` may sign QA in after the first frame; a link handed over meanwhile waits for it.
        state.identifying = connection.identifies
        if let cached = connection.cache.latest {
            state.methods = cached.methods
            state.methodsFetchedAt = cached.fetchedAt
            state.sessions = cached.sessions
        }
        if let problem = connection.sessionProblem {
            state.toast = Toast(problem, shownAt: state.now, duration: 6)
        }
        // While the app runs, a toast says why colours or keys may differ from the terminal's own.
        if state.toast == nil, let notice = terminal.terminalType.shortNotice {
            state.toast = Toast(notice, shownAt: state.now, duration: 6)
        }
        let performer = ClientPerformer(
            client: connection.client, cache: connection.cache, embedded: connection.embedded,
            worlds: connection.worlds)
        let session = connection.startWorld.map { SessionRecord(startWorld: $0, scenario: backendOptions.scenario) }
        let code = runLoop(
            state: state, pending: started.pending, mailbox: mailbox, terminal: terminal, clock: clock,
            connection: connection, performer: performer, session: session)
        close(terminal)
        await performer.shutdownWorlds()
        // The HTTP client must be shut down on every path, or it traps in its deinit.
        await connection.close()
        return code
    }

    /// The app on a replay's state and backend: no start of its own, the same screen, and on from there.
    private func carryOn(_ connection: BackendConnection, from replayed: AppState) async throws -> Int32 {
        let terminal: CursesTerminal
        do {
            _ = try TerminalType.resolve(environment: ProcessInfo.processInfo.environment).get()
            var options = CursesTerminal.resolveOptions(
                theme: appearance.theme, asciiFlag: appearance.ascii, environment: ProcessInfo.processInfo.environment)
            options.mouse = mouse
            terminal = try CursesTerminal(options: options)
        } catch {
            await connection.close()
            throw error
        }
        var state = replayed
        state.options.ascii = terminal.options.ascii
        state.options.theme = terminal.options.theme.name
        let performer = ClientPerformer(
            client: connection.client, cache: connection.cache, embedded: connection.embedded,
            worlds: connection.worlds)
        let code = runLoop(
            state: state, pending: [], mailbox: LinkMailbox(), terminal: terminal, clock: connection.clock,
            connection: connection, performer: performer, session: nil, starts: false)
        close(terminal)
        await performer.shutdownWorlds()
        await connection.close()
        return code
    }

    /// The app's state before its first action, on `root`; the backend's part (its URL, the cached methods)
    /// is added once it is up.
    private func initialState(
        root: any ScreenModel, now: Date, terminal: CursesTerminal, deviceRegion: String?
    ) -> AppState {
        var state = AppState(
            root: root, now: now,
            options: AppOptions(
                platform: appearance.platform ?? .ios, ascii: terminal.options.ascii,
                hasReferenceBackend: backendOptions.backend == nil, deviceRegion: deviceRegion, timeZone: .current))
        state.options.theme = terminal.options.theme.name
        // Typed before the walk lands, keys wait for its screen, on the starting screen too.
        if startAt != nil { StartAt.holdKeys(in: &state) }
        return state
    }

    /// Restores the terminal, then leaves the fallback notice where the scrollback keeps it.
    private func close(_ terminal: CursesTerminal) {
        terminal.shutdown()
        if let notice = terminal.terminalType.notice {
            FileHandle.standardError.write(Data((notice + "\n").utf8))
        }
    }

    /// Waits for the backend while the terminal keeps being read: resizes are drawn, signals end the app, and
    /// Ctrl+C (or q, or a key that quits on the first screen) quits as soon as the backend can be closed again.
    /// The embedded backend's first screen (`starting`) answers keys meanwhile and keeps them for the app.
    private func waitForBackend(
        _ opening: OpeningBackend, on terminal: CursesTerminal, starting: inout StartingScreen?,
        spinner: inout Spinner
    ) throws -> (connection: BackendConnection, pending: [InputEvent], quit: Bool) {
        opening.wakeOnOpen(terminal.waker)
        var quit = false
        while true {
            if let result = opening.result { return (try result.get(), starting?.pending ?? [], quit) }
            switch terminal.nextEvent(timeout: .milliseconds(80)) {
            case .key(.control("c")): quit = true
            case nil: spinner.tick += 1
            case .resize where starting == nil: break
            case let event?:
                if starting != nil {
                    starting?.take(event)
                    if starting?.quits == true { quit = true }
                } else if event == .key(.character("q")) {
                    quit = true
                }
            }
            paint(starting?.state, or: spinner, on: terminal)
        }
    }

    /// The screen while the backend starts: `early` at the terminal's size, or the spinner.
    private func paint(_ early: AppState?, or spinner: Spinner, on terminal: CursesTerminal) {
        if var early {
            early.size = terminal.size
            terminal.paint(render(early, size: terminal.size))
        } else {
            var frame = CellGrid(size: terminal.size)
            spinner.render(into: &frame, in: frame.bounds, glyphs: terminal.options.ascii ? .ascii : .unicode)
            terminal.paint(frame)
        }
    }

    /// The embedded backend's first screen, known from the scenario file before the backend is up; nil with
    /// `--backend` (a stored session is checked first) or a scenario file that does not read (the start says why).
    static func firstScreen(_ options: BackendOptions) -> (any ScreenModel)? {
        guard options.backend == nil,
            let signedIn = Fixtures.startsSignedIn(options.scenario, in: Fixtures.defaultDirectory())
        else { return nil }
        return signedIn ? SettingsScreen() : WelcomeScreen()
    }

    /// The backend connection, opened by a task started at once and handed to the loop that waits for it.
    private final class OpeningBackend: Sendable {
        private final class Shared: Sendable {
            let outcome = Mutex<Result<BackendConnection, any Error>?>(nil)
            /// The terminal to wake when the connection is open (it is made after the task starts).
            let waker = Mutex<TerminalWaker?>(nil)
        }
        private let shared: Shared
        private let task: Task<Void, Never>

        init(_ options: BackendOptions) {
            let shared = Shared()
            self.shared = shared
            task = Task {
                let result: Result<BackendConnection, any Error>
                do {
                    // The embedded backend's world before the sign-in, for Ctrl+P "Save bug report".
                    result = .success(try await BackendConnection.open(options, keepStartWorld: options.backend == nil))
                } catch {
                    result = .failure(error)
                }
                shared.outcome.withLock { $0 = result }
                shared.waker.withLock { $0 }?.wake()
            }
        }

        var result: Result<BackendConnection, any Error>? { shared.outcome.withLock { $0 } }

        func wakeOnOpen(_ terminalWaker: TerminalWaker) {
            shared.waker.withLock { $0 = terminalWaker }
        }

        /// Closes the connection once it is open, when the app cannot go on (no terminal).
        func abandon() async {
            await task.value
            if case .success(let connection) = result { await connection.close() }
        }
    }

    /// Links from `open-link`, kept until the app's store is there to take them.
    private final class LinkMailbox: Sendable {
        private struct State {
            var store: Store?
            var waiting: [String] = []
            var closed = false
        }
        private let state = Mutex(State())

        func deliver(_ link: String) {
            let store = state.withLock { state -> Store? in
                guard !state.closed else { return nil }
                if state.store == nil, state.waiting.count < StartingScreen.pendingLimit { state.waiting.append(link) }
                return state.store
            }
            store?.send(.openLink(link))
        }

        /// Before the store stops: a link arriving later is dropped, as when nothing listened.
        func close() { state.withLock { $0.closed = true } }

        func open(to store: Store) {
            let waiting = state.withLock { state -> [String] in
                state.store = store
                defer { state.waiting = [] }
                return state.waiting
            }
            for link in waiting { store.send(.openLink(link)) }
        }
    }

    private func runLoop(
        state: AppState, pending: [InputEvent], mailbox: LinkMailbox, terminal: CursesTerminal,
        clock: any AppClock, connection: BackendConnection, performer: ClientPerformer, session: SessionRecord?,
        starts: Bool = true
    ) -> Int32 {
        let store = Store(
            state: state, clock: clock, backendWaitClock: SystemClock(),
            services: TerminalServices(bugReports: session.map { ($0, connection.client) }),
            performer: performer
        ) { [waker = terminal.waker] in waker.wake() }
        defer { store.stop() }
        // The reducer keeps keys from a screen hidden by "Terminal too small": it needs the size.
        store.send(.input(.resize(terminal.size)))
        // A replayed state has started already (`open-report`).
        if starts { store.send(.started) }
        // The status strip and a reset by another tool follow the reference backend's admin state.
        store.send(.watchAdmin)
        // Behind `accessdeck proxy`, the strip counts its findings and F3 marks the exchanges they name.
        store.send(.watchProxy)
        let identifying = Task { [store, startAt] in
            if let found = await connection.identify() {
                if let methods = found.qaSignedIn { store.send(.qaSignedIn(methods, profile: found.qaProfile)) }
                store.send(.identified)
            }
            // Once who is signed in is settled: the road is walked as that user.
            if let startAt { store.send(.startAt(startAt)) }
        }
        defer { identifying.cancel() }
        if let openingLink { store.send(.openLink(openingLink)) }
        mailbox.open(to: store)
        defer { mailbox.close() }
        recording?.begin(
            size: terminal.size, scenario: backendOptions.backend == nil ? backendOptions.scenario : nil,
            startAt: startAt)
        defer { recording?.finish() }
        castRecording?.begin(
            size: terminal.size, scenario: backendOptions.backend == nil ? backendOptions.scenario : nil,
            theme: .named(store.state.options.theme))
        session?.begin(size: terminal.size, theme: .named(store.state.options.theme))
        // Whose fixture password a tape writes as `secret scenario`: the embedded backend's scenario only.
        let embedded = connection.embedded != nil
        func record(_ event: InputEvent) {
            let entry = store.state.secretEntry
            let scenario = embedded ? store.state.console.scenario : nil
            recording?.record(event, into: entry, scenario: scenario)
            session?.record(event, into: entry, scenario: scenario)
        }
        // Typed while the backend started, over the same first screen.
        for event in pending {
            record(event)
            store.send(.input(event))
        }
        // Blocks in the kernel between events: timers and replies wake it through the waker.
        while !store.isQuitting {
            let state = store.state
            // A preview's theme and ASCII are its own: the app's come back when it is left.
            let looks = state.paintedLooks
            terminal.setLooks(theme: .named(looks.theme), ascii: looks.ascii)
            terminal.paint(render(state, size: terminal.size))
            castRecording?.frame(state, size: terminal.size)
            session?.frame(state, size: terminal.size)
            if let event = terminal.nextEvent(timeout: nil) {
                record(event)
                store.send(.input(event))
            }
        }
        return 0
    }
}

/// A failure to report on stderr with exit status 1.
struct RuntimeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
