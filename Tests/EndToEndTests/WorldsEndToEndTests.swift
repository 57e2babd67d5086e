import Foundation
import Testing

/// Issue 33's palette entries in the real binary on its embedded backend: "New world from scenario" moves the
/// app into a new world (the strip says which; the app's calls land in that world's journal, none in the
/// default world's; its countdowns follow that world's clock), and "Switch world" brings it back.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct WorldsEndToEndTests {
    /// The paths of a world's journal, oldest first, after entry `after` (an id).
    private static func journal(_ admin: ReferenceAdmin, after: Int = 0) throws -> [(id: Int, path: String)] {
        let body = try admin.get("/journal?limit=500")
        let entries = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]] ?? []
        return entries.compactMap { entry in
            guard let id = entry["id"] as? Int, let path = entry["path"] as? String, id > after else { return nil }
            return (id, path)
        }
        .sorted { $0.id < $1.id }
    }

    /// The seconds of the resend countdown ("Resend in 0:27"), nil when none is shown.
    private static func countdown(in screen: String) -> String? {
        guard let range = screen.range(of: #"Resend in 0:\d\d"#, options: .regularExpression) else { return nil }
        return String(screen[range])
    }

    @Test func newWorldFromScenarioThenSwitchBackToTheDefaultWorld() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let admin = try ReferenceAdmin()
        let tmux = try Tmux(width: 100, height: 30, command: [binary] + admin.arguments)
        try tmux.waitFor("Account access")
        try tmux.waitFor("Backend: http://127.0.0.1:\(admin.port) · admin API")
        #expect(!(try tmux.capture()).contains("world bob"))
        let before = try Self.journal(admin).last?.id ?? 0

        try tmux.runPaletteCommand("world bob default", expecting: "New world bob from scenario default")
        try tmux.waitFor("World: bob")  // the toast
        let inBob = try tmux.waitFor("world bob")  // the status strip
        #expect(inBob.contains("Account access"))
        // The app's calls from here are bob's: its QA sign-in there, then its methods on the hub.
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Email & password")
        // The countdowns on screen follow bob's clock: the default world's move does not end the resend
        // cooldown (the countdown ticks on past it), bob's does.
        try tmux.changePhoneVerifyingWithPassword()
        try tmux.sendLiteral("511999999")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Resend in 0:")
        try admin.advanceClock(seconds: 60)
        let shown = Self.countdown(in: try tmux.capture())
        try tmux.waitUntil("the countdown drawn again after the default world's move") {
            Self.countdown(in: $0) != shown
        }
        #expect(!(try tmux.capture()).contains("Resend code"))
        try admin.inWorld("bob").advanceClock(seconds: 60)
        try tmux.waitFor("Resend code")

        let bob = try Self.journal(admin.inWorld("bob")).map(\.path)
        #expect(bob.contains("/_admin/session"))
        #expect(bob.contains("/me/auth-methods"))
        // The default world saw the world being made (and the palette's look at the worlds and scenarios, this
        // test's own look at the journal and move of its clock), nothing else.
        let main = try Self.journal(admin, after: before).map(\.path)
        #expect(main.contains("/_admin/worlds"))
        let expected: Set = ["/_admin/worlds", "/_admin/scenarios", "/_admin/journal", "/_admin/clock/advance"]
        #expect(main.allSatisfy(expected.contains), "\(main)")

        try tmux.runPaletteCommand("switch world default", expecting: "Switch world: default")
        try tmux.waitFor("World: default")
        try tmux.waitUntil("the strip no longer says world bob") { !$0.contains("world bob") }
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Email & password")
        let back = try Self.journal(admin, after: before).map(\.path)
        #expect(back.contains("/_admin/session"))
        #expect(back.contains("/me/auth-methods"))
    }
}
