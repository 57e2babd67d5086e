import Foundation
import Testing

/// The QA console in the real binary: what a QA engineer does through the palette alone.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct ConsoleEndToEndTests {
    /// Opens the palette, searches, and runs the best match; waits until the palette is gone.
    private func runCommand(_ tmux: Tmux, _ search: String, expecting match: String) throws {
        try tmux.sendKeys("C-p")
        try tmux.waitFor("> Type to search")
        try tmux.sendLiteral(search)
        // The whole query typed (not only its first letters) and the match on top.
        try tmux.waitUntil("\(match) chosen for \(search)") { screen in
            let lines = screen.split(separator: "\n")
            return lines.contains { $0.contains("> \(search) ") } && lines.contains { $0.contains("▸ \(match)") }
        }
        try tmux.sendKeys("Enter")
        try tmux.waitUntil("the palette closed") { !$0.contains("> \(search)") }
    }

    /// Issue 16's "done when": "code expired → resend rate-limited" without waiting or restarting.
    @Test func codeExpiredThenResendRateLimitedThroughThePalette() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(width: 80, height: 24, command: [binary])
        try tmux.waitFor("Account access")
        try runCommand(tmux, "resend-exh", expecting: "Scenario: resend-exhausted")
        try tmux.waitFor("Scenario: resend-exhausted")  // the toast
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Email & password")  // the methods have loaded
        try tmux.changePhoneVerifyingWithPassword()
        try tmux.sendLiteral("511999999")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Resend in 0:")

        try runCommand(tmux, "clock 5", expecting: "Clock +5 min")
        let expired = try tmux.waitFor("code expired")
        #expect(expired.contains("Code expired. Request a new one."))

        // The outbox marks the code as the backend judges it.
        try tmux.sendKeys("C-o")
        let outbox = try tmux.waitFor("SMS to +995 511 999 999 · code")
        #expect(outbox.contains(" expired "))
        try tmux.sendKeys("Escape")
        try tmux.waitUntil("the outbox closed") { !$0.contains("What the reference backend sent") }

        try tmux.sendKeys("r")
        let limited = try tmux.waitFor("Too many attempts. Try again in")
        #expect(limited.contains("Code expired. Request a new one."))
    }

    @Test func theScenarioListIsPrintedWithDescriptions() throws {
        let listed = try AccessDeckBinary.run(["scenarios"])
        #expect(listed.status == 0)
        let lines = listed.output.split(separator: "\n")
        #expect(lines.count >= 25)
        #expect(lines.contains { $0.hasPrefix("resend-exhausted") && $0.contains("3 resends in the last 15 min") })
    }
}
