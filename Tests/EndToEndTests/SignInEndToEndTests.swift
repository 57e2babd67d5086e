import Foundation
import Testing

/// Issue 14's way in, in a real terminal on the real binary: Welcome, "Continue with…" by phone,
/// email, Google, email & password, the lockout, a stored session on the next start, and a
/// backend that is not there.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct SignInEndToEndTests {
    /// Fresh state on a served backend: Welcome, Continue with phone, the code from the outbox,
    /// Settings; the session is kept, and the next start goes straight in through the session check.
    @Test func signInByPhoneThenTheNextStartGoesStraightIn() throws {
        let served = try ServedBackend(scenario: "returning-user")
        let app = try served.startApp(qaSignIn: false)
        try app.waitFor("Get started")
        try app.sendKeys("Enter")
        try app.waitFor("Continue with phone")
        try app.sendKeys("Enter")
        try app.waitFor("We'll text you a code")
        try app.sendLiteral("511100000")
        try app.sendKeys("Enter")
        try app.waitFor("We texted a 6-digit code to +995 511 100 000.")
        try app.useNewestFromOutbox(newest: "SMS to +995 511 100 000 · code")
        try app.waitFor("Account access")
        let session = served.sessionFile
        try app.waitUntil("the session is kept") { _ in FileManager.default.fileExists(atPath: session.path) }
        try app.sendKeys("Enter")
        try app.waitFor("jdoe@mail.com")
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)

        let again = try served.startApp(qaSignIn: false)
        let settings = try again.waitFor("Account access")
        #expect(!settings.contains("Get started"))
        try again.sendKeys("Enter")
        try again.waitFor("jdoe@mail.com")
    }

    /// An address nobody has: the emailed code signs up a new account, which goes on into onboarding
    /// (seed 003); the code proved the address, so after the username there is nothing to verify, and the
    /// hub shows just that email.
    @Test func signUpByEmailCodeAsANewAddress() throws {
        let app = try Tmux.openSignIn(scenario: "new-user")
        try app.sendKeys("Down", "Enter")
        try app.waitFor("Continue with email")
        try app.sendLiteral("new.user@mail.com")
        try app.sendKeys("Enter")
        try app.waitFor("We emailed a 6-digit code to new.user@mail.com.")
        try app.useNewestFromOutbox(newest: "Email to new.user@mail.com · code")
        try app.waitFor("Your profile")
        // Issue 48 item 18: the address is proven, so no recovery email step: two steps, not "2 of 4" then "4 of 4".
        try app.waitFor("Step 2 of 2")
        try app.sendLiteral("new.user")
        try app.waitFor("Available")
        try app.sendKeys("Enter", "Enter")
        let done = try app.waitFor("You're all set")
        #expect(done.contains("Done  ● ●") && !done.contains("Step 4 of 4"))
        try app.sendKeys("Enter")
        try app.waitFor("Screen gallery")  // Settings, not the orientation naming Account access
        try app.sendKeys("Enter")
        let hub = try app.waitFor("new.user@mail.com")
        #expect(!hub.contains("+995 511 100 000"))
    }

    /// Continue with Google through the reference backend's simulated sheet: no code step.
    @Test func continueWithGoogleSimulated() throws {
        let app = try Tmux.openSignIn(scenario: "returning-user")
        for _ in 0..<3 { try app.sendKeys("Down") }  // Continue with Google
        try app.sendKeys("Enter")
        try app.waitFor("Sign in with Google")
        try app.waitFor("Simulate an error")
        try app.sendKeys("Enter")  // the account linked to the returning athlete
        try app.waitFor("Account access")
        try app.sendKeys("Enter")
        try app.waitFor("jdoe@mail.com")
    }

    /// Seed 002: register, "Check your email to verify your account", the link from the outbox,
    /// then log in with the same password and choose a username (onboarding) on the way in.
    @Test func registerVerifyFromTheOutboxThenLogIn() throws {
        let app = try Tmux.openSignIn(scenario: "new-user")
        for _ in 0..<5 { try app.sendKeys("Down") }  // Email & password
        try app.sendKeys("Enter")
        try app.waitFor("Ctrl+T switches")
        try app.sendKeys("C-t")
        try app.waitFor("[ Register ]")
        try app.sendLiteral("fresh@mail.com")
        try app.sendKeys("Tab")
        try app.sendLiteral("violet-harbor-77")
        try app.sendKeys("Enter")
        try app.waitFor("Check your email to verify your account")
        try app.useNewestFromOutbox(newest: "Email to fresh@mail.com · verification link")
        try app.waitFor("fresh@mail.com is verified. Log in to continue.")
        try app.sendKeys("Tab")
        try app.sendLiteral("violet-harbor-77")
        try app.sendKeys("Enter")
        // A registration is a new account: onboarding's profile, then (its email verified) the end.
        try app.waitFor("Step 2 of 2")
        try app.sendLiteral("fresh")
        try app.waitFor("Available")
        try app.sendKeys("Enter", "Enter")
        let done = try app.waitFor("You're all set")
        #expect(!done.contains("isn't verified yet"))
        try app.sendKeys("Enter")
        try app.waitFor("Screen gallery")
    }

    /// Three wrong passwords: "Invalid email or password" twice, then a countdown; the backend's clock
    /// moved past it, the right password goes in.
    @Test func wrongPasswordThriceCountsDown() throws {
        let admin = try ReferenceAdmin()
        let app = try Tmux.openSignIn(scenario: "returning-user", admin: admin)
        for _ in 0..<5 { try app.sendKeys("Down") }
        try app.sendKeys("Enter")
        try app.waitFor("Ctrl+T switches")
        try app.sendLiteral("jdoe@mail.com")
        try app.sendKeys("Tab")
        for attempt in 1...2 {
            // Drawn before Enter, so a field without bullets afterwards means this attempt was answered
            // (the message alone is still there from the attempt before).
            try app.sendLiteral("wrong-guess-\(attempt)")
            try app.waitUntil("the password typed") { $0.contains("•") }
            try app.sendKeys("Enter")
            try app.waitFor("Invalid email or password")
            // The password is cleared, the email kept.
            let screen = try app.waitUntil("the password cleared") { !$0.contains("•") }
            #expect(screen.contains("jdoe@mail.com"))
        }
        try app.sendLiteral("wrong-guess-3")
        try app.waitUntil("the password typed") { $0.contains("•") }
        try app.sendKeys("Enter")
        try app.waitFor("Too many incorrect attempts. Try again in 0:")
        try admin.advanceClock(seconds: 30)
        try app.waitUntil("the wait is over") { !$0.contains("Try again in") }
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
        try app.waitFor("Account access")
    }

    /// A stored session, nothing saved with it, and no backend: the first frame at once (the session
    /// check), then, with nothing to show offline, the choice; Continue offline goes in under the banner,
    /// the session kept.
    @Test func anUnreachableBackendSaysOffline() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        // Kept per backend origin (issue 27), and naming it.
        let folder = state.appendingPathComponent("accessdeck/backends/http_127.0.0.1_9")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let session = folder.appendingPathComponent("session.json")
        let stored = #"""
            {"user_id":"usr_athlete","access_token":"at_kept","access_expires_at":"2031-01-01T00:00:00Z",
             "refresh_token":"rt_kept","refresh_expires_at":"2031-01-08T00:00:00Z","origin":"http://127.0.0.1:9"}
            """#
        try Data(stored.utf8).write(to: session)
        let app = try Tmux(
            width: 80, height: 24, command: [try AccessDeckBinary.requireBuilt(), "--backend", "http://127.0.0.1:9"],
            environment: ["XDG_STATE_HOME": state.path])
        let choice = try app.waitFor("Continue offline", timeout: .seconds(5))
        #expect(choice.contains("Can't reach the server"))
        #expect(choice.contains("Sign in again"))
        #expect(choice.contains("You're offline. Trying to reconnect"))
        #expect(!choice.contains("Showing saved info"))
        try app.sendKeys("Enter")
        try app.waitFor("Account access")
        #expect(FileManager.default.fileExists(atPath: session.path))
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)
    }
}

/// An address registered but not verified: logging in asks to verify first; resending waits out the
/// 30 s since the registration's email, then sends without saying more.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct UnverifiedEmailEndToEndTests {
    @Test func loginBeforeTheLinkAsksToVerifyAndResendWaitsItsTurn() throws {
        let admin = try ReferenceAdmin()
        let app = try Tmux.openSignIn(scenario: "unverified-email", admin: admin)
        for _ in 0..<5 { try app.sendKeys("Down") }  // Email & password
        try app.sendKeys("Enter")
        try app.waitFor("Ctrl+T switches")
        try app.sendLiteral("pending@mail.com")
        try app.sendKeys("Tab")
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
        try app.waitFor("Please verify your email")
        try app.waitFor("We sent a verification link to pending@mail.com.")
        try app.sendKeys("r")
        try app.waitFor("Resend in 0:")
        try admin.advanceClock(seconds: 30)
        try app.waitFor("[ Resend verification ]")
        try app.sendKeys("r")
        try app.waitFor("Verification email sent")
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)
    }
}
