import Foundation
import Testing

/// Issue 13 in a real terminal: Apple/Google disconnect and connect, and deleting the account, on
/// the real binary with its embedded (or a served) reference backend.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct ProvidersEndToEndTests {
    /// The hub's rows in order: phone, email & password, Apple, Google (the app imitates iOS).
    func select(row index: Int, _ tmux: Tmux) throws {
        for _ in 0..<index { try tmux.sendKeys("Down") }
    }

    @Test func disconnectGoogleWithPasswordReauth() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        try select(row: 3, tmux)
        try tmux.sendKeys("Enter")
        try tmux.waitFor("You'll no longer be able to sign in with Google. You can reconnect it")
        try tmux.sendKeys("Up")  // the sheet opens on Cancel
        try tmux.waitFor("▸ Disconnect")
        try tmux.sendKeys("Enter")
        let picker = try tmux.waitFor("To disconnect Google, confirm with one of your active sign-in methods.")
        #expect(!picker.contains("Continue with Google"))
        try tmux.sendKeys("Enter")  // Use password
        try tmux.waitFor("Current password")
        try tmux.sendLiteral("correct-horse-42")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Google disconnected.")
        let hub = try tmux.waitFor("Not connected")
        #expect(hub.contains("Connect"))
        // Only Google went: the phone and the email are still there.
        #expect(hub.contains("+995 511 100 000"))
        #expect(hub.contains("jdoe@mail.com"))
    }

    @Test func appleAsTheOnlyMethodIsAHardBlock() throws {
        let tmux = try Tmux.openHub(scenario: "apple-only")
        try select(row: 2, tmux)
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Can't disconnect Apple")
        try tmux.waitFor("This is your only sign-in method. Add a phone number, email, or")
        try tmux.sendKeys("Enter")  // Got it
        try tmux.waitUntil("the sheet closed") { !$0.contains("Can't disconnect Apple") }
        #expect(!(try tmux.capture()).contains("Verify it's you"))
    }

    @Test func connectGoogleThroughTheSimulatedConsent() throws {
        let tmux = try Tmux.openHub(scenario: "apple-only")
        try select(row: 3, tmux)
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Choose an account to continue to 321Fit")
        try tmux.waitFor("another.account@gmail.com")
        try tmux.sendKeys("Enter")  // Continue with the first account
        try tmux.waitFor("Google connected.")
        let hub = try tmux.waitFor("Connected")
        #expect(!hub.contains("Not connected"))
    }

    @Test func aGoogleAccountLinkedToAnotherUserIsRefusedWithoutSayingWhose() throws {
        let tmux = try Tmux.openHub(scenario: "google-elsewhere")
        try select(row: 3, tmux)
        try tmux.sendKeys("Enter")
        try tmux.waitFor("john.doe@gmail.com")
        let list = try tmux.capture()
        // Select John Doe's account, wherever the sheet lists it.
        let rows = list.split(separator: "\n")
        let first = try #require(rows.firstIndex { $0.contains("@") })
        let john = try #require(rows.firstIndex { $0.contains("john.doe@gmail.com") })
        for _ in 0..<(john - first) { try tmux.sendKeys("Down") }
        try tmux.sendKeys("Enter")
        let refused = try tmux.waitFor("already linked to another 321Fit account")
        #expect(!refused.contains("usr_other"))
    }
}

@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct DeleteEndToEndTests {
    func openDelete(_ tmux: Tmux) throws {
        for _ in 0..<8 { try tmux.sendKeys("Down") }  // the last row is Delete account
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Your profile, photo, and personal info")
        try tmux.sendKeys("Up")  // it opens on Cancel
        try tmux.waitFor("▸ [ Delete account ]")
        try tmux.sendKeys("Enter")
    }

    /// Delete on `default` through to the end, on a served backend, and the next start is signed out.
    @Test func deleteThroughToTheEndAndTheNextStartIsSignedOut() throws {
        let served = try ServedBackend()
        let admin = served.admin
        let app = try served.startApp()
        try app.waitFor("Account access")
        try app.sendKeys("Enter")
        try app.waitFor("Email & password")  // the methods have loaded
        try openDelete(app)
        try app.waitFor("To delete your account, confirm with one of your active sign-in methods.")
        try app.sendKeys("Enter")  // Use password
        try app.waitFor("Current password")
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
        try app.waitFor("Delete your account forever?")
        try app.sendKeys("Up")  // the last chance opens on Cancel
        try app.waitFor("▸ Delete account")
        try app.sendKeys("Enter")
        try app.waitFor("Your account has been deleted")
        try app.waitFor("Thanks for trying 321Fit.")
        let session = served.sessionFile
        #expect(!FileManager.default.fileExists(atPath: session.path))
        #expect(try admin.get("/deletions").contains("usr_athlete"))
        // Seed 000: login/welcome replaces the hub.
        try app.sendKeys("Enter")
        try app.waitFor("Get started")
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)

        // Nobody to sign in as: the next start is on Welcome.
        let again = try served.startApp()
        try again.waitFor("Get started")
    }

    /// Each blocker shows its screen and never reaches "Verify it's you".
    @Test(arguments: [
        ("coach-sessions", "Cancel your upcoming sessions first"),
        ("coach-payout", "Withdraw your pending balance first"),
        ("coach-both", "Cancel your upcoming sessions first"),
        ("athlete-bookings", "Cancel your upcoming bookings first"),
    ])
    func aBlockerShowsItsScreenInsteadOfReauth(scenario: String, title: String) throws {
        let tmux = try Tmux.openHub(scenario: scenario)
        try openDelete(tmux)
        let screen = try tmux.waitFor(title)
        #expect(!screen.contains("Verify it's you"))
        if scenario == "coach-both" { #expect(screen.contains("Withdraw your pending balance first")) }
        if scenario == "coach-payout" { #expect(screen.contains("€75.00 · releases in 18h")) }
        #expect(screen.contains("Contact support"))
    }
}

/// Issue 27: Apple and Google against a backend the app does not know as the reference one (served, the
/// app started with `--backend` alone). The ID tokens a QA team would mint with its own tooling come from
/// the served backend's admin API here, and are pasted: sign in with Apple, then disconnect Google, which
/// an account with only Apple and Google verifies with Apple.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct ProviderTokenEndToEndTests {
    func idToken(_ provider: String, _ admin: ReferenceAdmin) throws -> String {
        let reply = try admin.post("/provider/\(provider)/token", "{}")
        let json = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
        return try #require(json?["id_token"] as? String)
    }

    @Test func signInWithAppleThenDisconnectGoogleWithPastedTokens() throws {
        let served = try ServedBackend(scenario: "apple-google")
        let app = try served.startApp(asAnotherBackend: true)
        try app.waitFor("Get started")
        try app.sendKeys("Enter")
        try app.waitFor("Continue with Apple")
        for _ in 0..<2 { try app.sendKeys("Down") }  // Continue with Apple
        try app.sendKeys("Enter")
        try app.waitFor("Apple ID token")
        let apple = try idToken("apple", served.admin)
        try app.pasteBracketed(apple)
        try app.waitFor("•••")
        #expect(!(try app.capture()).contains(apple))
        try app.sendKeys("Enter")
        try app.waitFor("Account access")
        try app.sendKeys("Enter")
        try app.waitFor("Google")
        for _ in 0..<3 { try app.sendKeys("Down") }  // Google
        try app.sendKeys("Enter")
        try app.waitFor("Disconnect Google?")
        try app.sendKeys("Up", "Enter")  // the sheet opens on Cancel
        let picker = try app.waitFor("To disconnect Google")
        #expect(picker.contains("Paste an ID token"))
        try app.sendKeys("Enter")  // Continue with Apple
        try app.waitFor("Apple ID token")
        try app.pasteBracketed(try idToken("apple", served.admin))
        try app.waitFor("•••")
        try app.sendKeys("Enter")
        try app.waitFor("Google disconnected.")
        #expect(!(try served.admin.get("/journal?limit=500")).contains(apple))
    }
}
