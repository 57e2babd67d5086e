import Foundation
import Testing

/// The QA console in the real binary: what a QA engineer does through the palette alone.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct ConsoleEndToEndTests {
    /// Issue 16's "done when": "code expired → resend rate-limited" without waiting or restarting.
    @Test func codeExpiredThenResendRateLimitedThroughThePalette() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(width: 80, height: 24, command: [binary])
        try tmux.waitFor("Account access")
        try tmux.runPaletteCommand("resend-exh", expecting: "Scenario: resend-exhausted")
        try tmux.waitFor("Scenario: resend-exhausted")  // the toast
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Email & password")  // the methods have loaded
        try tmux.changePhoneVerifyingWithPassword()
        try tmux.sendLiteral("511999999")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Resend in 0:")

        try tmux.runPaletteCommand("clock +5m", expecting: "Clock +5 min")
        let expired = try tmux.waitFor("code expired")
        #expect(expired.contains("Code expired. Request a new one."))

        // The outbox marks the code as the backend judges it.
        try tmux.sendKeys("C-o")
        let outbox = try tmux.waitFor("SMS to +995 511 999 999 · code")
        #expect(outbox.contains(" expired "))
        try tmux.sendKeys("Escape")
        try tmux.waitUntil("the outbox closed") { !$0.contains("What the reference backend sent") }

        try tmux.sendKeys("r")
        let limited = try tmux.waitFor("Resend limit reached. Try again in")
        #expect(limited.contains("Code expired. Request a new one."))
    }

    /// Issue 29 item 5 in the real binary: the journal (F3) shows when the backend took each call on its moved
    /// clock, `/` narrows it and says how many calls match, and the toast of `c` is drawn over the panel.
    @Test func theJournalShowsTheBackendsTimeFiltersAndToastsOverThePanel() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        // Two days, three hours and seven minutes on: the reload is taken at the backend's moved time.
        func methodsCalls() -> [[String: Any]] {
            let body = (try? admin.get("/journal?limit=500")) ?? "[]"
            let entries = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [[String: Any]] ?? []
            return entries.filter { $0["path"] as? String == "/me/auth-methods" }
        }
        let before = methodsCalls().count
        try admin.advanceClock(seconds: 2 * 86_400 + 3 * 3600 + 7 * 60)
        try tmux.sendKeys("r")
        try tmux.waitUntil("the backend journalled the reload") { _ in methodsCalls().count > before }
        let stamp = try #require(methodsCalls().last?["at"] as? String)
        let at = try #require(Self.parseTime(stamp))
        let time = Self.clockTime(at)

        try tmux.sendKeys("F3")
        try tmux.waitFor("\(time)  GET /me/auth-methods")
        try tmux.sendLiteral("/auth-methods")
        let filtered = try tmux.waitFor("/ auth-methods")
        let lines = filtered.split(separator: "\n")
        #expect(lines.contains { $0.contains("/ auth-methods") && $0.contains(" match") })
        #expect(!lines.contains { $0.contains("POST /auth/refresh") })
        try tmux.sendKeys("Enter")
        try tmux.sendLiteral("c")
        try tmux.waitFor("Copied as curl")
        try tmux.sendKeys("Escape")
        try tmux.waitUntil("the filter cleared") { !$0.contains(" match") && $0.contains("Requests") }
        try tmux.sendKeys("Escape")
        try tmux.waitUntil("the journal closed") { !$0.contains("Requests") }
    }

    private static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// HH:MM:SS in UTC, as the panel shows it.
    private static func clockTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    @Test func theScenarioListIsPrintedWithDescriptions() throws {
        let listed = try AccessDeckBinary.run(["scenarios"])
        #expect(listed.status == 0)
        let lines = listed.output.split(separator: "\n")
        #expect(lines.count >= 25)
        #expect(lines.contains { $0.hasPrefix("resend-exhausted") && $0.contains("3 resends in the last 15 min") })
    }
}
