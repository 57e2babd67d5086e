import CNcursesw
import TerminalKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal, driven through ncursesw: paints cell grids and reads keys, pastes and resizes.
///
/// Not thread-safe: the app calls it from one thread. Only `waker` (and `wake()`, which uses
/// it) may be used from other threads.
///
/// SIGINT, SIGTERM and SIGHUP from outside are noticed by `nextEvent`, which restores the
/// terminal and exits with 128 + the signal number (130, 143, 129); a terminal that hangs up
/// (stdin reports POLLHUP) exits with 129 the same way. Ctrl+C typed in the
/// terminal is not a signal (raw mode): it arrives as `.key(.control("c"))`.
public final class CursesTerminal {
    public private(set) var options: TerminalOptions
    public let waker: TerminalWaker
    public private(set) var size: Size
    /// The terminfo entry in use: `TERM`'s, or a fallback (its `notice` says so).
    public let terminalType: TerminalType

    private let window: UnsafeMutablePointer<WINDOW>
    private let wakePipe: WakePipe
    private var painter: CellPainter
    private var lastGrid: CellGrid?
    private var clearBeforeNextPaint = false
    private var queue = InputQueue()
    private var paste = PasteAssembler()
    private var isShutDown = false

    public static func resolveOptions(
        theme requested: Theme.Name?, asciiFlag: Bool, environment: [String: String]
    )
        -> TerminalOptions
    {
        TerminalOptions.resolve(theme: requested, asciiFlag: asciiFlag, environment: environment)
    }

    public init(options: TerminalOptions) throws(CursesError) {
        self.options = options
        Self.useUTF8Locale()
        FrameMemory.keepFreedFrames()
        // On a pipe or /dev/null stdin is always readable at end-of-file: poll would spin.
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        wakePipe = try WakePipe()
        waker = TerminalWaker(fd: wakePipe.writeFD)
        let term = getenv("TERM").map { String(cString: $0) }
        // A TERM without an entry here falls back to xterm's (TerminalType says why); dumb stops.
        let type = try TerminalType.choose(term: term, lookup: TerminalType.lookup).get()
        guard accessdeck_newterm_named(type.name) != nil, let window = accessdeck_stdscr() else {
            throw .cannotOpenTerminal(term: type.name)
        }
        terminalType = type
        self.window = window
        // Raw, not cbreak: Ctrl+C, Ctrl+Z and Ctrl+S/Q reach the app as keys.
        raw()
        noecho()
        nonl()
        keypad(window, true)
        nodelay(window, true)
        scrollok(window, false)
        intrflush(window, false)
        meta(window, true)
        leaveok(window, true)
        curs_set(0)
        set_escdelay(Int32(Self.escapeDelay(options)))
        define_key("\u{1B}[200~", KeyDecoder.Code.pasteStart)
        define_key("\u{1B}[201~", KeyDecoder.Code.pasteEnd)
        if options.mouse {
            // A press is the click at once: no wait to tell it from a double click.
            mouseinterval(0)
            _ = mousemask(KeyDecoder.MouseButton.reported, nil)
        }
        painter = CellPainter(window: window, theme: options.theme)
        size = Size(cols: Int(getmaxx(window)), rows: Int(getmaxy(window)))
        SignalGuard.install(wakeFD: wakePipe.writeFD)
        wnoutrefresh(window)
        doupdate()
        Self.writeRaw("\u{1B}[?2004h")
    }

    deinit { shutdown() }

    /// Switches the theme and ASCII drawing while the app runs (the command palette); the next paint
    /// draws every cell again.
    public func setLooks(theme: Theme, ascii: Bool) {
        guard !isShutDown, theme != options.theme || ascii != options.ascii else { return }
        options.theme = theme
        options.ascii = ascii
        painter = CellPainter(window: window, theme: theme)
        lastGrid = nil
    }

    /// Paints only the cells that differ from the last painted grid; everything after the
    /// first paint or a resize.
    public func paint(_ grid: CellGrid) {
        guard !isShutDown else { return }
        let target = options.ascii ? grid.asciiFallback() : grid
        let points: [Point]
        if lastGrid?.size != target.size || clearBeforeNextPaint {
            werase(window)
            if clearBeforeNextPaint { clearok(window, true) }
            clearBeforeNextPaint = false
            points = GridDiff.changedCells(from: nil, to: target)
        } else {
            points = GridDiff.changedCells(from: lastGrid, to: target)
        }
        let visible = Size(cols: Int(getmaxx(window)), rows: Int(getmaxy(window)))
        for point in points where point.x < visible.cols && point.y < visible.rows {
            painter.draw(target[point.x, point.y], at: point, screenWidth: visible.cols)
        }
        wnoutrefresh(window)
        doupdate()
        lastGrid = target
    }

    /// The next key, paste or resize. Blocks in poll(2) on stdin and the wake pipe, so an idle
    /// app costs no CPU. Returns nil when `timeout` passes or `wake()` is called, and at once
    /// after `shutdown()`.
    public func nextEvent(timeout: Duration?) -> InputEvent? {
        guard !isShutDown else { return nil }
        // Checked before anything queued: under a storm of keys the queue never empties, and a
        // signal honoured only when it did could wait for thousands of frames.
        exitIfSignalled()
        // So is a resize: ncurses reports one only when input is read, and input is read only once the queue
        // is empty. Under a key storm the queue held a pty's worth of keys, seconds of frames drawn at the old
        // size, which left a "Terminal too small" notice centred off the new screen: blank (make soak). Read
        // now, the new size is painted from the next frame on; the resize event keeps its place after the
        // keys typed before it.
        if SignalGuard.takeWindowChange() { readPendingInput() }
        if let event = queue.popFirst() { return event }
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: $0) }
        while true {
            readPendingInput()
            if let event = queue.popFirst() { return event }
            var waitMilliseconds: Int32 = -1
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return nil }
                waitMilliseconds = Self.milliseconds(roundingUp: left)
            }
            var fds = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, waitMilliseconds)
            exitIfSignalled()
            if ready < 0 { continue }  // EINTR: a signal; the loop rereads input and the flag.
            if ready == 0 { return nil }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The terminal went away: read what is left, then stop, or poll would spin.
                readPendingInput()
                if let event = queue.popFirst() { return event }
                shutdown()
                exit(129)
            }
            if fds[1].revents != 0 {
                let kinds = wakePipe.drain()
                exitIfSignalled()
                readPendingInput()
                if let event = queue.popFirst() { return event }
                if kinds.contains(WakeByte.user) { return nil }
            }
        }
    }

    /// Makes a blocked or future `nextEvent` return nil. Safe from any thread.
    public func wake() { waker.wake() }

    /// Leaves the terminal as it was found: bracketed paste off, cursor shown, curses ended,
    /// signal handlers restored. Safe to call twice.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        Self.writeRaw("\u{1B}[?2004l")
        if options.mouse { _ = mousemask(0, nil) }
        if !Self.hasAlternateScreen {
            // Without one (TERM=linux, vt100) endwin leaves the app's last screen where the shell goes on.
            werase(window)
            wrefresh(window)
        }
        curs_set(1)
        endwin()
        SignalGuard.restore()
    }

    /// Whether the terminal has a screen of its own for full-screen programs (terminfo's rmcup), which
    /// endwin leaves to give back what was there before.
    private static var hasAlternateScreen: Bool {
        guard let leave = tigetstr("rmcup"), Int(bitPattern: leave) != -1 else { return false }
        return leave.pointee != 0
    }

    /// Drains everything ncurses can read without waiting: ncurses buffers input itself, so
    /// anything left behind would sit unseen while poll(2) waits on an empty descriptor.
    private func readPendingInput() {
        var character: wint_t = 0
        while true {
            // Input that keeps arriving (a long paste, a key storm) would keep this loop reading.
            exitIfSignalled()
            let result = wget_wch(window, &character)
            if result == ERR { return }
            if result == KEY_CODE_YES {
                let code = Int32(bitPattern: character)
                if code == KeyDecoder.Code.resize {
                    noteResize()
                } else if code == KeyDecoder.Code.mouse {
                    readMouse()
                } else {
                    accept(.keyCode(code))
                }
            } else {
                accept(.character(character))
            }
        }
    }

    private func accept(_ input: PasteAssembler.Input) {
        switch paste.feed(input) {
        case .consumed: return
        case .paste(let text): queue.append(.paste(text))
        case .passThrough:
            let key: Key?
            switch input {
            case .character(let code): key = KeyDecoder.decode(code: code, isFunctionKey: false)
            case .keyCode(let code): key = KeyDecoder.decode(code: UInt32(bitPattern: code), isFunctionKey: true)
            }
            if let key { queue.append(.key(key)) }
        }
    }

    private func readMouse() {
        var report = MEVENT()
        guard options.mouse, getmouse(&report) == OK,
            let mouse = KeyDecoder.decodeMouse(
                buttons: UInt32(report.bstate), column: Int(report.x), row: Int(report.y))
        else { return }
        queue.append(.mouse(mouse))
    }

    private func noteResize() {
        size = Size(cols: Int(getmaxx(window)), rows: Int(getmaxy(window)))
        clearBeforeNextPaint = true
        // A drag produces a burst of sizes; only the last one matters.
        if case .resize = queue.last { queue.removeLast() }
        queue.append(.resize(size))
    }

    private func exitIfSignalled() {
        guard let signal = SignalGuard.pending else { return }
        shutdown()
        exit(128 + signal)
    }

    /// Options built by hand (not by `resolveOptions`) still honour a user's ESCDELAY.
    private static func escapeDelay(_ options: TerminalOptions) -> Int {
        if let explicit = options.escapeDelayMilliseconds { return explicit }
        let fromEnvironment = getenv("ESCDELAY").flatMap { Int(String(cString: $0)) }
        if let fromEnvironment, fromEnvironment >= 0 { return fromEnvironment }
        return TerminalOptions.defaultEscapeDelayMilliseconds
    }

    private static func milliseconds(roundingUp duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }

    /// Without a UTF-8 LC_CTYPE, ncursesw draws every non-ASCII character as a blank.
    private static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset.uppercased() != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
    }

    private static func writeRaw(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(STDOUT_FILENO, &bytes, bytes.count)
    }
}
