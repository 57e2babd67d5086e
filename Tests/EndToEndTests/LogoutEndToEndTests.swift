import Foundation
import Testing

/// Issue 14's Log out in a real terminal, on a served reference backend: Settings, the
/// confirmation, the server's session ended, the session file gone and the next start signed out.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct LogoutEndToEndTests {
    @Test func logOutFromSettingsAndTheNextStartIsSignedOut() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let admin = try ReferenceAdmin()
        let server = try Tmux(
            width: 100, height: 5, command: [binary, "serve", "--scenario", "default"] + admin.arguments)
        try server.waitFor("listening on http://")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let start = {
            try Tmux(
                width: 80, height: 24, command: [binary, "--backend", "http://127.0.0.1:\(admin.port)"],
                environment: ["XDG_STATE_HOME": state.path])
        }
        let otherDevice = try admin.newSession()
        let app = try start()
        let settings = try app.waitFor("Account access")
        #expect(settings.contains("Log out"))
        let session = state.appendingPathComponent("accessdeck/session.json")
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: session)) as? [String: Any]
        let accessToken = try #require(stored?["access_token"] as? String)

        for _ in 0..<3 { try app.sendKeys("Down") }  // Log out, the last row
        try app.sendKeys("Enter")
        try app.waitFor("Are you sure you want to logout?")
        try app.sendKeys("Enter")  // Log out
        try app.waitFor("You're logged out")
        try app.waitUntil("the session file is gone") { _ in !FileManager.default.fileExists(atPath: session.path) }
        // The server ended this session only: the other device is still signed in.
        #expect(try admin.status(ofGet: "/me/auth-methods", bearer: accessToken) == 401)
        #expect(try admin.status(ofGet: "/me/auth-methods", bearer: otherDevice) == 200)
        try app.sendKeys("Enter")  // Quit
        #expect(try app.waitForExit() == 0)

        let again = try start()
        try again.waitFor("Account access")
        #expect(!FileManager.default.fileExists(atPath: session.path))
        try again.sendKeys("Enter")
        try again.waitFor("Your session ended. Sign in again.")
    }
}
