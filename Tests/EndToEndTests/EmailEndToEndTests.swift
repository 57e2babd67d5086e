import Foundation
import Testing

/// The Email & password branch as a person walks it: the real binary in tmux on its embedded
/// reference backend, links taken from the outbox panel (Ctrl+O).
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: end-to-end tests need a real terminal"))
struct EmailEndToEndTests {
    /// From the hub to the sub-hub (the Email & password row is the second).
    func openSubHub(_ tmux: Tmux) throws {
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("A verification link will be sent for any change.")
    }

    @Test func changeEmailWithTheLinkThenTheOldAddressRevertsIt() throws {
        let tmux = try Tmux.openHub(scenario: "default")
        try openSubHub(tmux)
        try tmux.sendKeys("Enter")  // Change email
        let picker = try tmux.waitFor("To change your email, confirm with one of your active sign-in methods.")
        #expect(!picker.contains("Email a link"))
        try tmux.sendKeys("Enter")  // Use password
        try tmux.waitFor("Current password")
        try tmux.sendLiteral("correct-horse-42")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Current: jdoe@mail.com")
        try tmux.sendLiteral("new.email@gmail.com")
        try tmux.waitFor("[ Send link ]")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("We sent a verification link to new.email@gmail.com. Tap it to confirm.")
        try tmux.useNewestFromOutbox(newest: "Email to new.email@gmail.com · verification link")
        try tmux.waitFor("Email updated to new.email@gmail.com.")
        let subHub = try tmux.waitFor("A verification link will be sent for any change.")
        #expect(subHub.contains("new.email@gmail.com"))

        // The link is one-shot: opened again (now second in the outbox), it has expired.
        try tmux.useNewestFromOutbox(newest: "Email to jdoe@mail.com · email changed", skipping: 1)
        try tmux.waitFor("This link has expired")
        try tmux.sendKeys("Escape")

        // The old address was told; its link puts the old email back and signs everyone out, this session
        // too: the app goes to sign-in and says why (issue 28 item 6). From the outbox as from `open-link`, it
        // asks first, Cancel chosen (issue 48 item 9).
        try tmux.useNewestFromOutbox(newest: "Email to jdoe@mail.com · email changed")
        try tmux.waitFor("Undo the change")
        try tmux.sendKeys("Up")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Your email is jdoe@mail.com again.")
        try tmux.waitFor("Continue with phone")
    }

    @Test func addEmailAndPasswordOnNoEmailNeedsNoReauth() throws {
        let tmux = try Tmux.openHub(scenario: "no-email")
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Enter")  // the Add pill
        try tmux.waitFor("Add email & password")
        try tmux.sendLiteral("me@gmail.com")
        try tmux.sendKeys("Tab")
        try tmux.sendLiteral("12345678")
        try tmux.sendKeys("Tab")  // leaving the field judges every rule
        try tmux.waitFor("✗ Not all numbers")
        try tmux.sendKeys("BTab")
        for _ in 0..<8 { try tmux.sendKeys("BSpace") }
        try tmux.sendLiteral("correct-horse-42")
        try tmux.waitFor("✓ Not all numbers")
        try tmux.waitFor("[ Send link ]")  // on once the address is known to be free
        try tmux.sendKeys("Enter")
        try tmux.waitFor("We sent a verification link to me@gmail.com. Tap it to confirm.")
        try tmux.useNewestFromOutbox(newest: "Email to me@gmail.com · verification link")
        try tmux.waitFor("Email added: me@gmail.com.")  // an addition says added (issue 28 item 15)
        try tmux.waitFor("me@gmail.com")
    }

    @Test func changePasswordViaACodeSignsTheOtherSessionOut() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        let otherDevice = try admin.newSession()
        #expect(try admin.status(ofGet: "/me/auth-methods", bearer: otherDevice) == 200)
        try openSubHub(tmux)
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Enter")  // Change password
        let picker = try tmux.waitFor("To change your password, confirm with one of your active sign-in methods.")
        #expect(!picker.contains("Use password"))
        for _ in 0..<3 { try tmux.sendKeys("Down") }  // Email a link, Apple, Google, Text me a code
        try tmux.sendKeys("Enter")
        try tmux.waitFor("We texted a 6-digit code to +995 511 100 000.")
        try tmux.useNewestFromOutbox(newest: "SMS to +995 511 100 000 · code")
        try tmux.waitFor("Choose something you'll remember. You'll use it to sign in.")
        try tmux.sendLiteral("battery-staple-77")
        try tmux.sendKeys("Tab")
        try tmux.sendLiteral("battery-staple-77")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Password updated. You're signed out on other devices.")
        try tmux.waitFor("Last changed today")
        #expect(try admin.status(ofGet: "/me/auth-methods", bearer: otherDevice) == 401)
    }

    @Test func anExpiredLinkLandsOnThisLinkHasExpiredAndANewOneWorks() throws {
        let tmux = try Tmux.openHub(scenario: "link-expired")
        try tmux.useNewestFromOutbox(newest: "Email to new.email@gmail.com · verification link")
        try tmux.waitFor("Verification links expire after 30 minutes. Request a new one to try again.")
        try tmux.sendKeys("Enter")  // Request a new link
        try tmux.waitFor("We sent a verification link to new.email@gmail.com. Tap it to confirm.")
        try tmux.useNewestFromOutbox(newest: "Email to new.email@gmail.com · verification link")
        try tmux.waitFor("Email updated to new.email@gmail.com.")
    }
}
