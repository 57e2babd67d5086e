import Foundation
import Testing

/// Issue 30's Active sessions in real terminals on `many-devices`: the list, one device signed out from
/// here after "Verify it's you" and a second app on the same backend landing on sign-in with the reason,
/// then every other device signed out inside the same 15-minute window (no second "Verify it's you").
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct SessionsEndToEndTests {
    @Test func manyDevicesSignOneOutThenAllOthers() throws {
        let served = try ServedBackend(scenario: "many-devices")
        let app = try served.startApp()
        try app.waitFor("Account access")
        try app.sendKeys("Enter")
        try app.waitFor("Email & password")
        for _ in 0..<5 { try app.sendKeys("Down") }  // phone, email, Apple, Google, Passkeys, then Active sessions
        try app.waitFor("▸ Active sessions")
        try app.sendKeys("Enter")
        let list = try app.waitFor("active 40 days ago")
        #expect(list.contains("This device"))
        #expect(list.contains("iOS 18.1 · Phone code · active 5 min ago"))
        #expect(list.contains("Sign out all other devices"))

        // A second app on the same backend, with its own state: another sign-in of the same account.
        let otherState = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessdeck-e2e-other-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: otherState) }
        let other = try Tmux(
            width: 80, height: 24,
            command: [
                served.binary, "--backend", "http://127.0.0.1:\(served.admin.port)", "--reference-backend",
                "--qa-sign-in",
            ],
            environment: ["XDG_STATE_HOME": otherState.path])
        try other.waitFor("Account access")
        try other.waitUntil("its QA sign-in saved a session") { _ in
            FileManager.default.fileExists(
                atPath: otherState.appendingPathComponent(
                    "accessdeck/backends/http_127.0.0.1_\(served.admin.port)/session.json"
                ).path)
        }

        // Reloaded, it is the newest of the others: right under this device.
        try app.sendKeys("r")
        try app.waitFor("Unknown device")
        try app.sendKeys("Down")
        try app.waitFor("▸ Unknown device")
        try app.sendKeys("Enter")
        try app.waitFor("Sign out Unknown device?")
        try app.sendKeys("Up")  // the sheet opens on Cancel
        try app.waitFor("▸ Sign out")
        try app.sendKeys("Enter")
        try app.waitFor("To sign out Unknown device, confirm with one of your sign-in methods.")
        try app.sendKeys("Enter")  // Use password
        try app.waitFor("Current password")
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
        // Not the toast: its 3 s on the app's clock can pass between two captures. The list, reloaded, says it.
        try app.waitUntil("the list reloaded without it") { !$0.contains("Unknown device") && $0.contains("Pixel 8") }

        // The other app's next call is refused: sign-in, told why.
        try other.sendKeys("Enter")
        try other.waitFor("You were signed out from another device.")
        #expect(try served.admin.get("/outbox").contains("session_signed_out_notice"))

        // Sign out all other devices: confirm, and the grant of a moment ago is still in its window, so no
        // second "Verify it's you": only this device is left.
        try app.waitFor("Nino's iPhone")
        for _ in 0..<5 { try app.sendKeys("Down") }
        try app.waitFor("▸ Sign out all other devices")
        try app.sendKeys("Enter")
        try app.waitFor("Sign out all other devices?")
        try app.sendKeys("Up")
        try app.waitFor("▸ Sign out all")
        try app.sendKeys("Enter")
        let alone = try app.waitFor("No other devices are signed in.")
        #expect(!alone.contains("Nino's iPhone"))
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)
    }
}
