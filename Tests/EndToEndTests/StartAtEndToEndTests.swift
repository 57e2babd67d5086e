import Foundation
import Testing

/// Issue 51 item 4 in the real binary: `--start-at` lands on the screen with the backend's own state behind it,
/// and a palette preset makes a state on the backend for real, which its journal counts.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct StartAtEndToEndTests {
    /// `GET /_admin/journal/count` with these filters.
    static func count(_ admin: ReferenceAdmin, _ query: String) throws -> Int? {
        let body = try admin.get("/journal/count?\(query)")
        return (try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["count"] as? Int
    }

    @Test func startsOnEnterTheCodeThenExhaustsItThroughThePalette() throws {
        let admin = try ReferenceAdmin()
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(
            width: 80, height: 24,
            command: [binary, "--scenario", "taken-number", "--start-at", "enter-code"] + admin.arguments)
        let screen = try tmux.waitFor("We texted a 6-digit code to +995 555 010 203.")
        #expect(screen.contains("Enter the code"))
        #expect(screen.contains("Resend in 0:"))
        // The code is the backend's: in its outbox, sent after "Verify it's you" with Google.
        #expect(try admin.get("/outbox").contains("+995555010203"))
        #expect(try Self.count(admin, "path=/auth/reauth/social&status=200") == 1)
        #expect(try Self.count(admin, "path=/auth/phone/request-otp&status=2xx") == 1)

        try tmux.runPaletteCommand("Exhaust this code", expecting: "Exhaust this code (5 wrong)")
        try tmux.waitFor("Five wrong codes. Request a new one.")
        #expect(try Self.count(admin, "path=/auth/phone/verify-otp&method=POST&status=4xx") == 5)
    }

    @Test func aScreenThatCannotBeStartedAtExits64ListingThoseThatCan() throws {
        let outcome = try AccessDeckBinary.run(["--start-at", "hub:offline"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("no backend calls are known to reach 'hub:offline'; --start-at takes one of: "))
        #expect(outcome.errors.contains("enter-code:empty"))
        let play = try AccessDeckBinary.run(["play", "/dev/null", "--start-at", "nowhere"])
        #expect(play.status == 64)
        #expect(play.errors.contains("no screen or state 'nowhere'"))
    }
}
