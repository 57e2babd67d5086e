import Foundation
import Testing

/// Issue 53 item 2 in a real terminal: the app as this device's authenticator. A passkey added from the hub
/// (the "Create a passkey" sheet's Enter), listed; then log out and Continue with passkey, whose sheet's Enter
/// signs in.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct PasskeysEndToEndTests {
    @Test func addAPasskeyThenSignInWithIt() throws {
        let served = try ServedBackend(scenario: "default")
        let app = try served.startApp()
        try app.waitFor("Account access")
        try app.sendKeys("Enter")
        try app.waitFor("Email & password")
        for _ in 0..<4 { try app.sendKeys("Down") }  // phone, email, Apple, Google, then Passkeys
        try app.waitFor("▸ Passkeys")
        try app.sendKeys("Enter")
        try app.waitFor("No passkeys yet.")
        try app.sendKeys("Enter")  // Add a passkey
        try app.waitFor("Create a passkey")
        try app.sendKeys("Enter")
        let listed = try app.waitUntil("the list shows the new passkey") {
            $0.contains("created just now") && !$0.contains("No passkeys yet.")
        }
        #expect(listed.contains("Passkey"))

        try app.sendKeys("Escape")
        try app.waitFor("1 passkey")
        try app.sendKeys("Escape")
        try app.waitFor("Log out")
        for _ in 0..<3 { try app.sendKeys("Down") }
        try app.sendKeys("Enter")
        try app.waitFor("Are you sure you want to logout?")
        try app.sendKeys("Up")  // the sheet opens on Cancel
        try app.sendKeys("Enter")
        try app.waitFor("You're logged out.")
        for _ in 0..<4 { try app.sendKeys("Down") }  // phone, email, Apple, Google, then Continue with passkey
        try app.waitFor("▸ Continue with passkey")
        try app.sendKeys("Enter")
        try app.waitFor("Use your passkey")
        try app.sendKeys("Enter")
        try app.waitUntil("signed in again") { !$0.contains("Continue with passkey") && $0.contains("Account access") }
        try app.sendKeys("Enter")
        try app.waitFor("1 passkey")
    }
}
