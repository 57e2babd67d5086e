import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Child processes started with posix_spawn instead of Foundation's `Process`.
///
/// `Process.run()` in swift-corelibs-foundation (Swift 6.3.1) reads past a `dirent` while it lists
/// /proc/self/fd and crashes the caller now and then (swiftlang/swift-corelibs-foundation#5472); a test
/// run that starts hundreds of children hit it. A spawned child also starts with no signal blocked: a
/// test runner's threads block most of them, and tmux or the app inherit whatever the parent blocks.
public enum ChildProcess {
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it (as a shell says), or -1 when stopped
        /// after its time bound.
        public var status: Int32
        public var output: Data
        public var errors: Data
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `executable` to its end with stdin from /dev/null and returns both streams. They go through
    /// files, not pipes: a child that forks a daemon (tmux) leaves a pipe open and it never ends. With
    /// `within`, a child still running then is sent SIGTERM and reported as status -1.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        within bound: Duration? = nil
    ) throws -> Outcome {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        let outputPath = base + ".out"
        let errorPath = base + ".err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        let pid = try spawn(executable, arguments, environment: environment, output: outputPath, errors: errorPath)
        var status = try waitForExit(pid, within: bound)
        if status == nil {
            kill(pid, SIGTERM)
            _ = try waitForExit(pid, within: nil)
            status = -1
        }
        return Outcome(
            status: status ?? -1, output: FileManager.default.contents(atPath: outputPath) ?? Data(),
            errors: FileManager.default.contents(atPath: errorPath) ?? Data())
    }

    /// Starts `executable` with its output discarded and returns at once; `onExit` gets its exit status
    /// from a thread of its own that reaps it. Nil when it could not be started.
    @discardableResult
    public static func launch(
        _ executable: String, _ arguments: [String], onExit: (@Sendable (Int32) -> Void)? = nil
    ) -> pid_t? {
        guard let pid = try? spawn(executable, arguments, environment: nil, output: "/dev/null", errors: "/dev/null")
        else { return nil }
        // A thread of its own: some openers run as long as the program they open, and a waiting worker of
        // the shared pools would hold one of the few threads everything else runs on.
        Thread {
            let status = (try? waitForExit(pid, within: nil)) ?? nil
            onExit?(status ?? -1)
        }.start()
        return pid
    }

    /// `environment` nil: this process's own.
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String]?, output: String, errors: String
    ) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([path.split(separator: "/").last.map(String.init) ?? path] + arguments).map { strdup($0) } + [nil]
        let envp =
            (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// The exit status, or nil when `bound` passed first.
    static func waitForExit(_ pid: pid_t, within bound: Duration?) throws -> Int32? {
        let deadline = bound.map { ContinuousClock.now + $0 }
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
            if waited == pid { break }
            if waited < 0 {
                guard errno == EINTR else { throw Failure(description: "waitpid failed: \(errno)") }
                continue
            }
            if let deadline, ContinuousClock.now >= deadline { return nil }
            usleep(20_000)
        }
        // WIFEXITED / WEXITSTATUS, which do not import as macros.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
