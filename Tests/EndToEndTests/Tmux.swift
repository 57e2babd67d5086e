import ChildProcess
import Foundation

/// A real terminal for end-to-end tests: a detached tmux session on a private server.
///
/// Every instance starts its own server (`tmux -L <unique socket>`), so tests cannot see each
/// other's sessions, and kills it when released. Panes stay around after their process exits
/// (`remain-on-exit`), so a test can read the exit status and what the screen looked like.
final class Tmux {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let socket: String
    let session = "e2e"
    private let configPath: String
    private let statusPath: String
    private var isKilled = false

    /// The tmux executable on PATH, if any.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static var isAvailable: Bool { executable != nil }

    /// Starts `command` in a `width`×`height` pane with `TERM=tmux-256color`, `LANG=C.UTF-8`,
    /// `NO_COLOR`/`ESCDELAY` unset, then `environment` applied on top.
    init(width: Int, height: Int, command: [String], environment: [String: String] = [:]) throws {
        guard Self.isAvailable else { throw Failure(description: "tmux is not installed") }
        socket = "accessdeck-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        configPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf").path
        statusPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status").path
        // No status line (the pane gets the whole window) and dead panes stay readable.
        let config = "set -g status off\nset -g remain-on-exit on\nset -g history-limit 0\n"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        var assignments = ["TERM": "tmux-256color", "LANG": "C.UTF-8"]
        assignments.merge(environment) { _, new in new }
        let env = assignments.sorted { $0.key < $1.key }.map { Self.quote("\($0.key)=\($0.value)") }
        // tmux 3.3a sometimes never fills in #{pane_dead_status}, so a shell around the app
        // records its exit status in a file.
        let wrapper = ["sh", "-c", "\"$@\"; echo \"$?\" > \(Self.quote(statusPath))", "accessdeck-e2e"]
        let shellCommand =
            (["exec", "env", "-u", "NO_COLOR", "-u", "ESCDELAY"] + env + (wrapper + command).map(Self.quote))
            .joined(separator: " ")
        try run([
            "-f", configPath, "new-session", "-d", "-s", session, "-x", String(width), "-y", String(height),
            shellCommand,
        ])
    }

    deinit { kill() }

    /// Sends tmux key names: "Down", "Enter", "Escape", "C-c", "F5", "BTab".
    func sendKeys(_ keys: String...) throws {
        try run(["send-keys", "-t", session] + keys)
    }

    /// Sends text byte for byte (`send-keys -l`), escape sequences included.
    func sendLiteral(_ text: String) throws {
        try run(["send-keys", "-t", session, "-l", text])
    }

    /// Pastes through a tmux buffer with `paste-buffer -p`: tmux adds the bracketed-paste
    /// markers only if the application turned bracketed paste on.
    func pasteBracketed(_ text: String) throws {
        try run(["set-buffer", "-b", "e2e", text])
        try run(["paste-buffer", "-p", "-d", "-b", "e2e", "-t", session])
    }

    /// The visible pane as text; with `escapes`, including the SGR sequences of each cell.
    func capture(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-t", session] + (escapes ? ["-e"] : []))
    }

    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", session, "-x", String(width), "-y", String(height)])
    }

    /// A tmux format evaluated for the pane, e.g. "#{pane_pid}", "#{alternate_on}".
    func format(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", session, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The app's process: the child of the shell that runs in the pane.
    func appPID() throws -> Int32? {
        guard let shell = Int32(try format("#{pane_pid}")) else { return nil }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after the command name: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == shell { return pid }
        }
        return nil
    }

    /// Polls capture-pane every 50 ms until `text` shows or `timeout` passes. A real process
    /// has no injected clock, so this is the one place tests poll; the timeout bounds it.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(20)) throws -> String {
        try waitUntil("\"\(text)\" on screen", timeout: timeout) { $0.contains(text) }
    }

    @discardableResult
    func waitUntil(
        _ what: String, timeout: Duration = .seconds(20), _ condition: (String) -> Bool
    ) throws
        -> String
    {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var screen = ""
        while true {
            screen = try capture()
            if condition(screen) { return screen }
            if clock.now >= deadline { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "timed out after \(timeout) waiting for \(what); screen:\n\(screen)")
    }

    /// Waits for the app to exit and returns its exit status (128 + N if killed by signal N).
    func waitForExit(timeout: Duration = .seconds(10)) throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            let text = (try? String(contentsOfFile: statusPath, encoding: .utf8)) ?? ""
            if let status = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                // The shell exits right after writing; wait for tmux to notice so the screen is final.
                while try format("#{pane_dead}") != "1", clock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
                return status
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "process still running after \(timeout); screen:\n\(try capture())")
    }

    static func isProcessAlive(_ pid: Int32) -> Bool {
        Foundation.kill(pid, 0) == 0 || errno == EPERM
    }

    func kill() {
        guard !isKilled else { return }
        isKilled = true
        _ = try? run(["kill-server"])
        // tmux 3.3a leaves the socket file behind after kill-server.
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(socket)")
        try? FileManager.default.removeItem(atPath: configPath)
        try? FileManager.default.removeItem(atPath: statusPath)
    }

    /// Runs tmux through ChildProcess (posix_spawn): the spawned client (and the server it forks, and the app
    /// in its pane) must start with no signals blocked, and a test runner's threads block most of them; its
    /// output goes through files, since the forked server keeps the client's descriptors open.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        let outcome = try ChildProcess.run(
            Self.executable ?? "/usr/bin/tmux", ["-L", socket] + arguments, environment: environment)
        guard outcome.status == 0 else {
            let message = String(decoding: outcome.errors, as: UTF8.self)
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) exited \(outcome.status): \(message)")
        }
        return String(decoding: outcome.output, as: UTF8.self)
    }

    private static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// The binary under test: `ACCESSDECK_BIN`, or `.build/debug/accessdeck` in this repository.
enum AccessDeckBinary {
    static var path: String {
        if let override = ProcessInfo.processInfo.environment["ACCESSDECK_BIN"], !override.isEmpty {
            return override
        }
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repository.appendingPathComponent(".build/debug/accessdeck").path
    }

    static func requireBuilt() throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Tmux.Failure(description: "no executable at \(path): run `swift build` or set ACCESSDECK_BIN")
        }
        return path
    }
}

extension Tmux {
    /// Opens the palette, searches, and runs the best match; waits until the palette is gone.
    func runPaletteCommand(_ search: String, expecting match: String) throws {
        try sendKeys("C-p")
        try waitFor("> Type to search")
        try sendLiteral(search)
        // The whole query typed (not only its first letters) and the match on top.
        try waitUntil("\(match) chosen for \(search)") { screen in
            let lines = screen.split(separator: "\n")
            return lines.contains { $0.contains("> \(search) ") } && lines.contains { $0.contains("▸ \(match)") }
        }
        try sendKeys("Enter")
        try waitUntil("the palette closed") { !$0.contains("> \(search)") }
    }
}
