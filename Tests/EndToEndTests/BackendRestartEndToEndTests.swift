import Foundation
import Testing

/// Issue 48 item 14 in the real binaries: `accessdeck serve` stopped and started again on its port under two
/// running apps. On its temporary database every session is gone and the epoch starts over; both apps said
/// "Session expired, please login" and nothing said the backend was reset. Now each says it was a restart and
/// starts over in the restarted backend's world.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct BackendRestartEndToEndTests {
    @Test func bothAppsSayTheBackendWasRestarted() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let admin = try ReferenceAdmin()
        let serve = [binary, "serve", "--scenario", "default"] + admin.arguments
        var server = try Tmux(width: 100, height: 5, command: serve)
        try server.waitFor("listening on http://")
        let folders = (0..<2).map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-e2e-\(UUID().uuidString)")
        }
        defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
        let apps = try folders.map { folder in
            try Tmux(
                width: 80, height: 24,
                command: [
                    binary, "--backend", "http://127.0.0.1:\(admin.port)", "--reference-backend", "--qa-sign-in",
                ],
                environment: ["XDG_STATE_HOME": folder.path])
        }
        for app in apps {
            try app.waitFor("Account access")
            try app.sendKeys("Enter")
            try app.waitFor("+995 511 100 000")
        }
        // The apps' watch has seen the first run (it looks every 2 s).
        let firstRun = try admin.get("/state")
        #expect(firstRun.contains("\"instance\""))

        server.kill()
        try waitUntilRefused(port: admin.port)
        server = try Tmux(width: 100, height: 5, command: serve)
        try server.waitFor("listening on http://")
        for app in apps {
            let said = try app.waitFor("The backend was restarted", timeout: .seconds(40))
            #expect(!said.contains("Session expired"))
        }
        // Each is signed in again in the restarted backend's world and works there.
        for app in apps {
            try app.waitUntil("back on Settings", timeout: .seconds(20)) {
                $0.contains("Account access") && !$0.contains("Switching")
            }
            try app.sendKeys("Enter")
            try app.waitFor("+995 511 100 000")
        }
        server.kill()
    }
}
