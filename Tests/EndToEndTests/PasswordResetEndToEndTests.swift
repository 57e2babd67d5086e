import Foundation
import Testing

/// Issue 28 item 25 in a real terminal on the real binary: Log in → Forgot password? → the link from the
/// outbox → a new password → Log in with it; the old sessions are gone and the address was told.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct PasswordResetEndToEndTests {
    @Test func fromLogInThroughTheEmailedLinkToLogInWithTheNewPassword() throws {
        let app = try Tmux.openSignIn(scenario: "returning-user")
        for _ in 0..<5 { try app.sendKeys("Down") }  // Email & password
        try app.sendKeys("Enter")
        try app.waitFor("Forgot password? Ctrl+F")
        try app.sendLiteral("jdoe@mail.com")
        try app.sendKeys("C-f")
        try app.waitFor("Enter the email you log in with.")
        try app.sendKeys("Enter")
        try app.waitFor("If an account uses jdoe@mail.com, we've sent it a link")
        try app.useNewestFromOutbox(newest: "Email to jdoe@mail.com · password reset link")
        try app.waitFor("For jdoe@mail.com.")
        // Too common: the checklist says so and Update password stays off.
        try app.sendLiteral("password1")
        try app.sendKeys("Tab")
        try app.waitFor("✗ Not a common password")
        try app.sendKeys("BTab")
        for _ in 0..<9 { try app.sendKeys("BSpace") }
        try app.sendLiteral("battery-staple-77")
        try app.sendKeys("Tab")
        try app.sendLiteral("battery-staple-77")
        try app.sendKeys("Enter")
        try app.waitFor("Password changed and every session signed out.")
        try app.sendLiteral("battery-staple-77")
        try app.sendKeys("Enter")
        try app.waitFor("Account access")
        try app.sendKeys("C-o")
        try app.waitFor("Email to jdoe@mail.com · password changed")
    }
}
