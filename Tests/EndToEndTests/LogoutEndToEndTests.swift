import Foundation
import Testing

/// Issue 14's Log out in a real terminal, on a served reference backend: Settings, the
/// confirmation, the server's session ended, the session file gone and the next start signed out.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct LogoutEndToEndTests {
    @Test func logOutFromSettingsAndTheNextStartIsSignedOut() throws {
        let served = try ServedBackend()
        let admin = served.admin
        let otherDevice = try admin.newSession()
        let app = try served.startApp()
        let settings = try app.waitFor("Account access")
        #expect(settings.contains("Log out"))
        let session = served.sessionFile
        // The QA sign-in happens once the app is on screen.
        try app.waitUntil("the QA sign-in saved a session") { _ in FileManager.default.fileExists(atPath: session.path)
        }
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: session)) as? [String: Any]
        let accessToken = try #require(stored?["access_token"] as? String)

        for _ in 0..<3 { try app.sendKeys("Down") }  // Log out, the last row
        try app.sendKeys("Enter")
        try app.waitFor("Are you sure you want to logout?")
        // The sheet opens on Cancel: Log out takes a move up.
        try app.sendKeys("Up")
        try app.waitFor("▸ Log out")
        try app.sendKeys("Enter")
        // The sign-in screen, saying only this device was signed out.
        let signIn = try app.waitFor("You're logged out. Your other devices stay signed in.")
        #expect(signIn.contains("Continue with phone"))
        try app.waitUntil("the session file is gone") { _ in !FileManager.default.fileExists(atPath: session.path) }
        // The server ended this session only: the other device is still signed in.
        #expect(try admin.status(ofGet: "/me/auth-methods", bearer: accessToken) == 401)
        #expect(try admin.status(ofGet: "/me/auth-methods", bearer: otherDevice) == 200)
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)

        // --qa-sign-in stays off after a log out here: the next start is on Welcome.
        let again = try served.startApp()
        try again.waitFor("Get started")
        #expect(!FileManager.default.fileExists(atPath: session.path))
    }

    /// A copy of the refresh token used after the app rotated it: the server ends the whole sign-in,
    /// and the app, refused at its next refresh, says why the session ended.
    @Test func aReusedRefreshTokenSignsTheAppOut() throws {
        let served = try ServedBackend()
        let admin = served.admin
        let app = try served.startApp()
        try app.waitFor("Account access")
        let session = served.sessionFile
        try app.waitUntil("the QA sign-in saved a session") { _ in FileManager.default.fileExists(atPath: session.path)
        }
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: session)) as? [String: Any]
        let copied = try #require(stored?["refresh_token"] as? String)

        // An hour on, the access token has expired: opening the hub refreshes it silently.
        try admin.advanceClock(seconds: 3601)
        try app.sendKeys("Enter")
        try app.waitFor("jdoe@mail.com")
        try app.waitUntil("the app saved the rotated session") { _ in
            let now = try? JSONSerialization.jsonObject(with: Data(contentsOf: session)) as? [String: Any]
            return (now?["refresh_token"] as? String).map { $0 != copied } ?? false
        }
        // Past the 10-second reuse interval, within which the copy would get the app's own pair back.
        try admin.advanceClock(seconds: 10)
        #expect(try admin.status(ofPost: "/auth/refresh", #"{"refresh_token": "\#(copied)"}"#) == 401)

        // The app's access token died with its family: its next call is refused, and so is its refresh; the
        // sign-in screen says why (issue 49 item 3), not "Session expired, please login".
        try app.sendKeys("Escape")
        try app.waitFor("Keyboard check")
        try app.sendKeys("Enter")
        try app.waitFor("You were signed out because this sign-in was used from two places at once.")
        try app.waitFor("Continue with phone")
    }
}
