#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes a `CursesTerminal` blocked in `nextEvent` from any thread (an HTTP reply, a timer).
public struct TerminalWaker: Sendable {
    let fd: Int32

    /// Async-signal-safe and lock-free: one byte into a non-blocking pipe. A full pipe already
    /// means a wake is pending, so a failed write loses nothing.
    public func wake() {
        var byte = WakeByte.user
        _ = write(fd, &byte, 1)
    }
}

/// A non-blocking self-pipe: poll(2) watches the read end next to stdin.
struct WakePipe {
    let readFD: Int32
    let writeFD: Int32

    init() throws(CursesError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .wakePipe(errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Empties the pipe and reports which kinds of wake were waiting.
    func drain() -> Set<UInt8> {
        var seen = Set<UInt8>()
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            seen.formUnion(buffer[0..<count])
        }
        return seen
    }
}

public enum CursesError: Error, Hashable, Sendable {
    /// stdin or stdout is not a terminal (a pipe, a file, /dev/null).
    case notATerminal
    /// newterm failed for a type whose terminfo entry was there a moment before.
    case cannotOpenTerminal(term: String)
    /// `TERM` names a terminal that cannot move the cursor (`dumb`, a hardcopy terminal).
    case cannotDrawScreens(term: String)
    /// Neither `TERM` (nil: unset) nor any fallback has a terminfo entry on this machine.
    case noTerminfo(term: String?, tried: [String])
    case wakePipe(Int32)
}
