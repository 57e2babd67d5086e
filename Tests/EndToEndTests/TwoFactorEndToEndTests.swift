import AccessCore
import ChildProcess
import Foundation
import Testing

/// Issue 31's walk in a real terminal, on the embedded reference backend: set two-factor up from the hub
/// (the key read off the screen, the first code from `accessdeck totp` on the backend's clock), log out,
/// sign in with the password and a code from the app, log out, sign in with a recovery code.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: end-to-end tests need a real terminal"))
struct TwoFactorEndToEndTests {
    /// The authenticator's code for `secret` now on the backend's clock, as `accessdeck totp` prints it.
    func code(_ secret: String, _ admin: ReferenceAdmin) throws -> String {
        let clock = try admin.get("/clock")
        let object = try JSONSerialization.jsonObject(with: Data(clock.utf8)) as? [String: Any]
        let now = try #require(object?["now"] as? String)
        let outcome = try AccessDeckBinary.run(["totp", secret, "--at", now], within: .seconds(30))
        #expect(outcome.status == 0, "\(outcome.errors)")
        return outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every match of `pattern` on the screen, in order.
    func matches(_ pattern: String, in screen: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(screen.startIndex..., in: screen)
        return regex.matches(in: screen, range: range).compactMap {
            Range($0.range, in: screen).map { String(screen[$0]) }
        }
    }

    /// The hub's two-factor row ends with `state`.
    static func twoFactorRow(_ screen: String, says state: String) -> Bool {
        screen.split(separator: "\n").contains { $0.contains("Two-factor authentication") && $0.hasSuffix(" \(state)") }
    }

    /// Settings' Log out, confirmed: the sign-in screen.
    func logOut(_ app: Tmux) throws {
        for _ in 0..<3 { try app.sendKeys("Down") }  // Log out, the last row
        try app.sendKeys("Enter")
        try app.waitFor("Are you sure you want to logout?")
        try app.sendKeys("Up")
        try app.waitFor("▸ Log out")
        try app.sendKeys("Enter")
        try app.waitFor("You're logged out. Your other devices stay signed in.")
    }

    /// Email & password on the sign-in screen: the first factor.
    func signInWithPassword(_ app: Tmux) throws {
        for _ in 0..<5 { try app.sendKeys("Down") }  // Email & password
        try app.sendKeys("Enter")
        try app.waitFor("Ctrl+T switches")
        try app.sendLiteral("jdoe@mail.com")
        try app.sendKeys("Tab")
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
    }

    @Test func setUpThenSignInWithACodeThenWithARecoveryCode() throws {
        let admin = try ReferenceAdmin()
        let app = try Tmux.openHub(scenario: "default", admin: admin)
        try app.waitUntil("the row says Off") { Self.twoFactorRow($0, says: "Off") }
        for _ in 0..<6 { try app.sendKeys("Down") }  // Two-factor authentication
        try app.sendKeys("Enter")
        try app.waitFor("To set up two-factor authentication, confirm with one of your sign-in")
        try app.sendKeys("Enter")  // Use password
        try app.waitFor("Current password")
        try app.sendLiteral("correct-horse-42")
        try app.sendKeys("Enter")
        // 80×24 has no room for the QR code: the key, in groups of four.
        let setup = try app.waitFor("Type this key into your authenticator app")
        #expect(setup.contains("too small for the QR code"))
        let secret = try matches("[A-Z2-7]{4}( [A-Z2-7]{4})*", in: setup)
            .filter { $0.count >= 19 }.joined(separator: " ").replacingOccurrences(of: " ", with: "")
        #expect(secret.count >= 16, "\(setup)")
        try app.sendKeys("Enter")
        try app.waitFor("Enter the 6-digit code your authenticator app shows for AccessDeck.")
        try app.sendLiteral(try code(secret, admin))
        let codes = try matches("[a-z2-7]{5}-[a-z2-7]{5}", in: try app.waitFor("Recovery codes"))
        #expect(codes.count == 10)
        try app.sendKeys("Enter")  // I saved them
        try app.waitFor("Two-factor authentication is on.")
        try app.waitUntil("the row says On") { Self.twoFactorRow($0, says: "On") }

        // Out, and in with the password and then the app's code (the next step's: the first is spent).
        try app.sendKeys("Escape")
        try app.waitFor("Log out")
        try logOut(app)
        try signInWithPassword(app)
        try app.waitFor("Enter the code from your authenticator app.")
        try admin.advanceClock(seconds: 30)
        try app.sendLiteral(try code(secret, admin))
        try app.waitFor("Account access")

        // Out again, and in with a recovery code.
        try logOut(app)
        try signInWithPassword(app)
        try app.waitFor("Enter the code from your authenticator app.")
        try app.sendKeys("u")
        try app.waitFor("Enter one of the recovery codes you saved")
        try app.sendLiteral(codes[0].uppercased())
        try app.sendKeys("Enter")
        try app.waitFor("Signed in with a recovery code. 9 codes left.")
        try app.waitFor("Account access")
        try app.sendKeys("q")
        #expect(try app.waitForExit() == 0)
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The set-up screen as the app lays it out (the code alone, and beside the key on a wide terminal),
    /// exported by `render`, made a PNG by rsvg-convert and read back by zbarimg: the gallery's URI, so
    /// nothing on the screen crowds the quiet zone.
    @Test(
        .enabled(if: tool("rsvg-convert") != nil && tool("zbarimg") != nil, "rsvg-convert or zbarimg is missing"),
        arguments: ["80x36", "150x40"])
    func theSetUpScreensQRCodeScansBackToItsURI(size: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twofa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = try AccessDeckBinary.run(
            ["render", "two-factor-setup:scan", "--size", size, "--format", "svg"], within: .seconds(30))
        #expect(svg.status == 0, "\(svg.errors)")
        let input = folder.appendingPathComponent("screen.svg")
        let png = folder.appendingPathComponent("screen.png")
        try svg.output.write(to: input, atomically: true, encoding: .utf8)
        let converted = try ChildProcess.run(Self.tool("rsvg-convert")!, ["-f", "png", "-o", png.path, input.path])
        #expect(converted.status == 0)
        let scanned = try ChildProcess.run(Self.tool("zbarimg")!, ["--raw", "-q", png.path])
        let text = String(decoding: scanned.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let secret = TOTP(base32: "IFRWGZLTONCGKY3LEBSGK3LPEBVWK6JB")!
        #expect(text == secret.uri(issuer: "321Fit", account: "nino@example.com"))
    }
}
