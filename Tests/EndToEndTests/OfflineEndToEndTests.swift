import Foundation
import Testing

/// Issue 27 in a real terminal: a stored session and a killed backend. The start is offline at once
/// (a refused connection is not retried, and the session check gives up within 2 s whatever happens),
/// on the saved data; when the backend is back on its port, the banner goes by itself.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct OfflineEndToEndTests {
    @Test func aKilledBackendIsOfflineAtOnceAndTheBannerGoesWhenItIsBack() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessdeck-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("backend.sqlite").path
        let environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]

        var server = try Tmux(width: 100, height: 5, command: [binary, "serve", "--port", "0", "--db", database])
        let line = try server.waitFor("listening on http://")
        let url = try #require(
            line.split(separator: "\n").first { $0.contains("listening on") }?
                .split(separator: " ").last.map(String.init))
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })

        // A first run signs in and sees the hub: the session and the methods are saved.
        let first = try Tmux(
            width: 80, height: 24, command: [binary, "--backend", url, "--qa-sign-in"], environment: environment)
        try first.waitFor("Account access")
        try first.sendKeys("Enter")
        try first.waitFor("+995 511 100 000")
        try first.sendKeys("q")
        _ = try first.waitForExit()

        server.kill()
        try waitUntilRefused(port: port)

        // The second start: offline well before the 2 s the session check may take, on the saved data.
        let started = ContinuousClock.now
        let app = try Tmux(width: 80, height: 24, command: [binary, "--backend", url], environment: environment)
        let offline = try app.waitFor("You're offline.", timeout: .seconds(5))
        let tookToOffline = ContinuousClock.now - started
        #expect(offline.contains("Account access"))
        #expect(!offline.contains("Checking your session"))
        print("offline banner \(tookToOffline) after the start")
        try app.sendKeys("Enter")
        let hub = try app.waitFor("+995 511 100 000")
        #expect(hub.contains("You're offline. Showing saved info."))

        // Back on the same port with the same database: the probe finds it, no key pressed.
        server = try Tmux(
            width: 100, height: 5, command: [binary, "serve", "--port", String(port), "--db", database])
        try server.waitFor("listening on http://")
        let back = ContinuousClock.now
        try app.waitUntil("the banner gone by itself", timeout: .seconds(40)) { !$0.contains("You're offline") }
        print("banner gone \(ContinuousClock.now - back) after the backend was back")
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)
        server.kill()
    }

    /// Issue 30: Active sessions opened once is kept with the hub's saved data, so after a restart with the
    /// backend gone it still shows the list, read only.
    @Test func activeSessionsShowsItsSavedListOfflineAfterARestart() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessdeck-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        let server = try Tmux(width: 100, height: 5, command: [binary, "serve", "--port", "0"])
        let line = try server.waitFor("listening on http://")
        let url = try #require(
            line.split(separator: "\n").first { $0.contains("listening on") }?
                .split(separator: " ").last.map(String.init))
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })

        func openActiveSessions(_ app: Tmux) throws {
            try app.sendKeys("Enter")
            try app.waitFor("Email & password")
            for _ in 0..<5 { try app.sendKeys("Down") }  // phone, email, Apple, Google, Passkeys, then Active sessions
            try app.waitFor("▸ Active sessions")
            try app.sendKeys("Enter")
        }
        let first = try Tmux(
            width: 80, height: 24, command: [binary, "--backend", url, "--qa-sign-in"], environment: environment)
        try first.waitFor("Account access")
        try openActiveSessions(first)
        try first.waitFor("No other devices are signed in.")
        try first.sendKeys("q")
        _ = try first.waitForExit()

        server.kill()
        try waitUntilRefused(port: port)

        let app = try Tmux(width: 80, height: 24, command: [binary, "--backend", url], environment: environment)
        try app.waitFor("You're offline.", timeout: .seconds(5))
        try openActiveSessions(app)
        let list = try app.waitFor("No other devices are signed in.")
        #expect(list.contains("This device"))
        #expect(list.contains("You're offline"))
        #expect(!list.contains("nothing is saved yet"))
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)
    }

    /// Signed in against one origin, then started against another (the same server as `localhost`, which
    /// is another origin): signed out on Welcome, no session check, so no token sent; the first origin's
    /// session is still there for it.
    @Test func anotherBackendStartsSignedOutAndTheFirstKeepsItsSession() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessdeck-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        let server = try Tmux(width: 100, height: 5, command: [binary, "serve", "--port", "0"])
        let line = try server.waitFor("listening on http://")
        let url = try #require(
            line.split(separator: "\n").first { $0.contains("listening on") }?
                .split(separator: " ").last.map(String.init))
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })

        let first = try Tmux(
            width: 80, height: 24, command: [binary, "--backend", url, "--qa-sign-in"], environment: environment)
        try first.waitFor("Account access")
        try first.sendKeys("q")
        _ = try first.waitForExit()

        let other = try Tmux(
            width: 80, height: 24, command: [binary, "--backend", "http://localhost:\(port)"], environment: environment)
        let welcome = try other.waitFor("Get started")
        #expect(!welcome.contains("Checking your session"))
        try other.sendKeys("q")
        _ = try other.waitForExit()

        let again = try Tmux(width: 80, height: 24, command: [binary, "--backend", url], environment: environment)
        try again.waitFor("Account access")
        try again.sendKeys("q")
        _ = try again.waitForExit()
        server.kill()
    }
}
