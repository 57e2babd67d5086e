import Foundation
import Testing

/// Issue 15's recovery, in a real terminal on the real binary: from the sign-in screen by the recovery
/// email's link, through limited access, to a re-verified new number; the recovery email's caps and
/// the password lockout, reached by moving the backend's clock instead of waiting.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct RecoveryEndToEndTests {
    /// "Can't access your account?" (the sign-in screen's row above Contact support), the address, Send link.
    private func requestLink(_ app: Tmux) throws {
        for _ in 0..<6 { try app.sendKeys("Down") }
        try app.sendKeys("Enter")
        try app.waitFor("Enter the email you added for recovery.")
        try app.sendLiteral("lost.phone@mail.com")
        try app.sendKeys("Enter")
        try app.waitFor("If an account uses lost.phone@mail.com, we've sent it a link to get back in.")
    }

    /// The recovery link from the outbox (under the SMS that told the lost phone), checked, then the
    /// password screen.
    private func openLink(_ app: Tmux) throws {
        try app.useNewestFromOutbox(newest: "SMS to +995 511 300 000 · recovery requested", skipping: 1)
        try app.waitFor("Enter the password for lost.phone@mail.com.")
    }

    @Test func fromSignInThroughLimitedAccessToANewNumber() throws {
        let app = try Tmux.openSignIn(scenario: "recovery-ready")
        try requestLink(app)
        try openLink(app)
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
        try app.waitFor("Limited access: verify your phone number to use everything again")

        // Every change on the hub is closed until the phone is verified.
        try app.sendKeys("Down", "Enter")
        try app.waitFor("+995 511 300 000")
        try app.sendKeys("Enter")
        try app.waitFor("Verify your phone first")
        try app.sendKeys("Enter")  // Verify your phone

        try app.waitFor("Your old number (+995 511 300 000) or a new one: we'll text it a code.")
        try app.sendLiteral("511300001")
        try app.sendKeys("Enter")
        try app.waitFor("We texted a 6-digit code to +995 511 300 001.")
        try app.useNewestFromOutbox(newest: "SMS to +995 511 300 001 · code")
        let settings = try app.waitFor("Your account is fully restored. Other devices were signed out.")
        #expect(!settings.contains("Limited access"))
        try app.sendKeys("Enter")
        let hub = try app.waitFor("+995 511 300 001")
        #expect(!hub.contains("Limited access"))
        // The recovery email was told.
        try app.sendKeys("C-o")
        try app.waitFor("Email to lost.phone@mail.com · account recovered")
    }

    /// 30 s between recovery emails and 5 a day: each wait counted down, each passed by the admin clock.
    @Test func theRecoveryEmailCapsCountDownAndTheClockPassesThem() throws {
        let admin = try ReferenceAdmin()
        let app = try Tmux.openSignIn(scenario: "recovery-ready", admin: admin)
        try requestLink(app)
        try app.waitFor("Resend link in 0:")
        for _ in 2...5 {
            try admin.advanceClock(seconds: 30)
            try app.waitUntil("the resend allowed") { !$0.contains("Resend link in") && $0.contains("Resend link") }
            try app.sendKeys("r")
            try app.waitFor("We sent a new link. Earlier links no longer work.")
            try app.waitFor("Resend link in 0:")
        }
        // The sixth within 24 h is refused, with the seed's words and the wait.
        try admin.advanceClock(seconds: 30)
        try app.waitUntil("the resend allowed") { !$0.contains("Resend link in") && $0.contains("Resend link") }
        try app.sendKeys("r")
        try app.waitFor("For security reasons, please wait before requesting another recovery")
        try admin.advanceClock(seconds: 24 * 60 * 60)
        try app.waitUntil("the resend allowed again") { !$0.contains("Resend link in") && $0.contains("Resend link") }
        try app.sendKeys("r")
        try app.waitFor("We sent a new link. Earlier links no longer work.")
    }

    /// `recovery-locked`: the address just failed its third password, so the link's password waits 30 s;
    /// a wrong one after that waits twice as long; the right one then gets in with limited access.
    @Test func theLockoutCountsDownAndTheClockEndsIt() throws {
        let admin = try ReferenceAdmin()
        let app = try Tmux.openSignIn(scenario: "recovery-locked", admin: admin)
        try requestLink(app)
        try openLink(app)
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
        try app.waitFor("Too many incorrect attempts. Try again in 0:")
        try admin.advanceClock(seconds: 30)
        try app.waitUntil("the wait is over") { !$0.contains("Try again in") }
        try app.sendLiteral("wrong-guess-4")
        try app.sendKeys("Enter")
        try app.waitFor("Too many incorrect attempts. Try again in 1:00")
        try admin.advanceClock(seconds: 60)
        try app.waitUntil("the wait is over") { !$0.contains("Try again in") }
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
        try app.waitFor("Limited access: verify your phone number to use everything again")
        try app.sendKeys("C-o")
        try app.waitFor("Email to lost.phone@mail.com · sign-in locked after failed attempts")
    }
}
