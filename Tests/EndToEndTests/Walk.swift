import ChildProcess
import Foundation

/// Steps every flow walk shares.
extension Tmux {
    /// The app on a scenario that starts signed out, on the sign-in screen ("Continue with…").
    static func openSignIn(scenario: String, admin: ReferenceAdmin? = nil) throws -> Tmux {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(
            width: 80, height: 24, command: [binary, "--scenario", scenario] + (admin?.arguments ?? []))
        try tmux.waitFor("Get started")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Continue with phone")
        return tmux
    }

    /// The app on `scenario`, opened on the Account access hub; with `admin`, its embedded
    /// backend listens on the admin's port.
    static func openHub(
        scenario: String, admin: ReferenceAdmin? = nil, arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> Tmux {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(
            width: 80, height: 24, command: [binary, "--scenario", scenario] + (admin?.arguments ?? []) + arguments,
            environment: environment)
        try tmux.waitFor("Account access")
        // Settings says where the embedded backend and its admin API are.
        if let admin { try tmux.waitFor("Backend: http://127.0.0.1:\(admin.port) · admin API") }
        try tmux.sendKeys("Enter")
        // The methods have loaded: while they load, the rows below them are already drawn.
        try tmux.waitFor("Email & password")
        return tmux
    }

    /// Opens the outbox, waits until it has loaded with `newest` (a line only the loaded panel
    /// shows, such as "SMS to +995 511 444 555 · code") on top, and uses it here, or the message
    /// `skipping` rows below it.
    func useNewestFromOutbox(newest: String, skipping: Int = 0) throws {
        try sendKeys("C-o")
        try waitUntil("the outbox loaded with \(newest) on top") { screen in
            let lines = screen.split(separator: "\n")
            guard let first = lines.firstIndex(where: { $0.contains("SMS to") || $0.contains("Email to") }) else {
                return false
            }
            return lines[first].contains(newest)
        }
        for _ in 0..<skipping { try sendKeys("Down") }
        try sendKeys("Enter")
    }
}

/// `accessdeck serve` on a port of the test's choosing, and apps started on it with `--backend` and
/// a state folder of their own (session file, signed-out marker), removed when the test is done.
final class ServedBackend {
    let admin: ReferenceAdmin
    let state: URL
    let binary: String
    private let server: Tmux

    /// `serving`: more `serve` flags (`--max-worlds 4`).
    init(scenario: String = "default", serving: [String] = []) throws {
        binary = try AccessDeckBinary.requireBuilt()
        admin = try ReferenceAdmin()
        server = try Tmux(
            width: 100, height: 5, command: [binary, "serve", "--scenario", scenario] + admin.arguments + serving)
        try server.waitFor("listening on http://")
        state = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-e2e-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: state) }

    /// The app's saved session in this backend's state folder: kept per backend origin (issue 27).
    var sessionFile: URL {
        state.appendingPathComponent("accessdeck/backends/http_127.0.0.1_\(admin.port)/session.json")
    }

    /// `qaSignIn`: the app signs in as the scenario's user by itself (`--qa-sign-in`) instead of
    /// starting on Welcome. Either way QA says this is a reference backend (`--reference-backend`), so
    /// the outbox is there; `asAnotherBackend` leaves both out: the app takes it for any other backend.
    func startApp(qaSignIn: Bool = true, asAnotherBackend: Bool = false) throws -> Tmux {
        let reference = asAnotherBackend ? [] : ["--reference-backend"] + (qaSignIn ? ["--qa-sign-in"] : [])
        return try Tmux(
            width: 80, height: 24, command: [binary, "--backend", "http://127.0.0.1:\(admin.port)"] + reference,
            environment: ["XDG_STATE_HOME": state.path])
    }
}

extension AccessDeckBinary {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the binary without a terminal (stdin from /dev/null) and reads its two streams apart: the
    /// app itself would exit 1 ("needs a terminal") after validation, so a 64 proves validation came first.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let outcome = try ChildProcess.run(
            try requireBuilt(), arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
        return Outcome(
            status: outcome.status, output: String(decoding: outcome.output, as: UTF8.self),
            errors: String(decoding: outcome.errors, as: UTF8.self))
    }
}

extension Tmux {
    /// From the hub: Phone number, "Verify it's you" with the default scenario's password, on to the
    /// new number's screen.
    func changePhoneVerifyingWithPassword() throws {
        try sendKeys("Enter")
        try waitFor("Verify it's you")
        try sendKeys("Enter")  // Use password
        try waitFor("Current password")
        try sendLiteral("correct-horse-42")
        try sendKeys("Enter")
        try waitFor("Current: +995 511 100 000")
    }
}
