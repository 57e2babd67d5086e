import Foundation
import Testing

/// Issue 15's onboarding, in a real terminal on the real binary: a new phone number through the four
/// steps to Settings, with the recovery email and without it, and an account left mid-way resuming
/// where it stands.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct OnboardingEndToEndTests {
    /// Signs up +995 511 123 456 on `new-user` with the code from the outbox: step 2 is next.
    private func signUpByPhone() throws -> Tmux {
        let app = try Tmux.openSignIn(scenario: "new-user")
        try app.sendKeys("Enter")
        try app.waitFor("We'll text you a code")
        try app.sendLiteral("511123456")
        try app.sendKeys("Enter")
        try app.waitFor("We texted a 6-digit code to +995 511 123 456.")
        try app.useNewestFromOutbox(newest: "SMS to +995 511 123 456 · code")
        try app.waitFor("Step 2 of 4")
        return app
    }

    /// A name someone has is refused as the person types; a free one goes on.
    private func chooseUsername(_ app: Tmux) throws {
        try app.sendLiteral("jdoe")
        try app.waitFor("That username is taken.")
        try app.sendKeys("BSpace", "BSpace", "BSpace", "BSpace")
        try app.sendLiteral("newbie")
        try app.waitFor("Available")
        try app.sendKeys("Enter", "Enter")  // to the photo field, left empty, then Continue
        try app.waitFor("Step 3 of 4")
    }

    @Test func aNewPhoneThroughAllFourStepsToSettings() throws {
        let app = try signUpByPhone()
        try chooseUsername(app)
        try app.sendLiteral("newbie@mail.com")
        try app.sendKeys("Tab")
        try app.sendLiteral("violet-harbor-77")
        try app.sendKeys("Enter")  // to the confirmation
        try app.sendLiteral("violet-harbor-77")
        try app.sendKeys("Enter")
        try app.waitFor("Step 4 of 4")
        try app.waitFor("We sent a link to newbie@mail.com.")
        try app.useNewestFromOutbox(newest: "Email to newbie@mail.com · verification link")
        let done = try app.waitFor("You're all set")
        #expect(done.contains("@newbie"))
        #expect(!done.contains("isn't verified yet"))
        try app.sendKeys("Enter")
        let settings = try app.waitFor("Screen gallery")  // Settings, not the orientation naming it
        #expect(!settings.contains("Verify your email"))
        try app.sendKeys("Enter")
        let hub = try app.waitFor("newbie@mail.com")
        #expect(hub.contains("+995 511 123 456"))
    }

    @Test func skippingTheRecoveryEmailGoesStraightToTheEnd() throws {
        let app = try signUpByPhone()
        try chooseUsername(app)
        try app.sendKeys("C-s")
        let done = try app.waitFor("You're all set")
        #expect(done.contains("No recovery email yet"))
        try app.sendKeys("Enter")
        let settings = try app.waitFor("Screen gallery")  // Settings, not the orientation naming it
        #expect(!settings.contains("Verify your email"))
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)
    }

    /// Going on without opening the link: Settings reminds of the unverified address until the link
    /// from the outbox is opened there.
    @Test func anUnverifiedRecoveryEmailIsRemindedOfInSettings() throws {
        let app = try signUpByPhone()
        try chooseUsername(app)
        try app.sendLiteral("later@mail.com")
        try app.sendKeys("Tab")
        try app.sendLiteral("violet-harbor-77")
        try app.sendKeys("Enter")  // to the confirmation
        try app.sendLiteral("violet-harbor-77")
        try app.sendKeys("Enter")
        try app.waitFor("Step 4 of 4")
        try app.sendKeys("Enter")  // Continue without verifying
        try app.waitFor("isn't verified yet")
        try app.sendKeys("Enter")
        try app.waitFor("Verify your email: open the link we sent to later@mail.com.")
        try app.useNewestFromOutbox(newest: "Email to later@mail.com · verification link")
        try app.waitUntil("Settings without the reminder") {
            $0.contains("Screen gallery") && !$0.contains("Verify your email")
        }
    }

    /// Seed 002's "app killed mid-registration": the account chose its name and stopped at the
    /// recovery email; signing in again resumes there.
    @Test func anAccountLeftMidwayResumesWhereItStands() throws {
        let app = try Tmux.openSignIn(scenario: "onboarding-midway")
        try app.sendKeys("Enter")
        try app.waitFor("We'll text you a code")
        try app.sendLiteral("511200000")
        try app.sendKeys("Enter")
        try app.waitFor("We texted a 6-digit code to +995 511 200 000.")
        try app.useNewestFromOutbox(newest: "SMS to +995 511 200 000 · code")
        let step = try app.waitFor("Step 3 of 4")
        #expect(step.contains("Add a recovery email"))
    }
}
