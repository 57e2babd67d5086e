import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT/SIGTERM → one async notification, with the handlers installed synchronously before the
/// server starts. (ServiceGroup's own signal sources are armed asynchronously by Dispatch, so a signal
/// sent right after "listening on" could still hit the default action and kill the process.)
enum TerminationSignals {
    /// The handler may only call async-signal-safe functions: it writes one byte to a pipe.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers now; `onSignal` runs once, on a dedicated thread, for the first signal.
    static func install(_ onSignal: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        writeEnd = ends[1]
        let readEnd = ends[0]
        for sig in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = { _ in
                    var byte: UInt8 = 1
                    _ = write(TerminationSignals.writeEnd, &byte, 1)
                }
            #else
                action.__sigaction_u.__sa_handler = { _ in
                    var byte: UInt8 = 1
                    _ = write(TerminationSignals.writeEnd, &byte, 1)
                }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        let thread = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            onSignal()
        }
        thread.start()
    }
}

/// Hands the stop request to whoever is running, even if the signal came before the server was up.
final class StopRequest: Sendable {
    private let state = Mutex<(requested: Bool, action: (@Sendable () -> Void)?)>((false, nil))

    func request() {
        let action = state.withLock { s -> (@Sendable () -> Void)? in
            s.requested = true
            return s.action
        }
        action?()
    }

    /// Runs `action` now if a stop was already requested, else on the first request.
    func onRequest(_ action: @escaping @Sendable () -> Void) {
        let already = state.withLock { s -> Bool in
            s.action = action
            return s.requested
        }
        if already { action() }
    }
}
