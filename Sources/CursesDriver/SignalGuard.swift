#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A signal handler can only touch plain globals; these are written before the handlers are
// installed so no lazy initialisation ever runs inside a handler.
nonisolated(unsafe) private var pendingSignal: sig_atomic_t = 0
nonisolated(unsafe) private var windowChanged: sig_atomic_t = 0
nonisolated(unsafe) private var signalWakeFD: Int32 = -1
nonisolated(unsafe) private var previousWinch = sigaction()
nonisolated(unsafe) private var savedActions: [Int32: sigaction] = [:]

/// Wake-pipe bytes, so the loop can tell a resize from a request to return.
enum WakeByte {
    static let user: UInt8 = 0x78
    static let signal: UInt8 = 0x73
    static let resize: UInt8 = 0x77
}

private func writeWakeByte(_ byte: UInt8) {
    var value = byte
    _ = write(signalWakeFD, &value, 1)
}

private func onTerminatingSignal(_ signal: Int32) {
    pendingSignal = signal
    writeWakeByte(WakeByte.signal)
}

// ncurses notes SIGWINCH in its own handler and reports KEY_RESIZE on the next read; the
// byte makes poll(2) return even when the signal landed just before the loop started waiting.
private func onWindowChange(_ signal: Int32) {
    if previousWinch.sa_flags & SA_SIGINFO == 0,
        let handler = previousWinch.__sigaction_handler.sa_handler,
        unsafeBitCast(handler, to: Int.self) > 1
    {
        handler(signal)
    }
    windowChanged = 1
    writeWakeByte(WakeByte.resize)
}

/// Turns SIGINT/SIGTERM/SIGHUP into a flag plus a wake-pipe byte: restoring the terminal is
/// not async-signal-safe, so the event loop does it (`CursesTerminal.nextEvent`).
enum SignalGuard {
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    static func install(wakeFD: Int32) {
        signalWakeFD = wakeFD
        pendingSignal = 0
        var action = sigaction()
        action.__sigaction_handler.sa_handler = onTerminatingSignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        for signal in terminating {
            var old = sigaction()
            sigaction(signal, &action, &old)
            savedActions[signal] = old
        }
        var winch = sigaction()
        winch.__sigaction_handler.sa_handler = onWindowChange
        sigemptyset(&winch.sa_mask)
        winch.sa_flags = 0
        var old = sigaction()
        sigaction(SIGWINCH, &winch, &old)
        previousWinch = old
        savedActions[SIGWINCH] = old
        // A blocked mask survives fork and exec: started from a thread of a process that
        // blocks signals (a test runner, a supervisor), the app would never see them.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in terminating + [SIGWINCH] { sigaddset(&handled, signal) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    static func restore() {
        for (signal, old) in savedActions {
            var action = old
            sigaction(signal, &action, nil)
        }
        savedActions = [:]
    }

    /// The terminating signal received, if any.
    static var pending: Int32? { pendingSignal == 0 ? nil : pendingSignal }

    /// Whether SIGWINCH came since the last call. Cleared before the caller reads the new size, so a
    /// signal landing while it does is reported again on the next call.
    static func takeWindowChange() -> Bool {
        guard windowChanged != 0 else { return false }
        windowChanged = 0
        return true
    }
}
