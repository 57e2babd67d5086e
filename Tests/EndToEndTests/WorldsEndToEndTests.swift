import Foundation
import Testing

/// Issue 33's palette entries in the real binary on its embedded backend: "New world from scenario" moves the
/// app into a new world (the strip says which; the app's calls land in that world's journal, none in the
/// default world's), and "Switch world" brings it back.
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

    private func runCommand(_ tmux: Tmux, _ search: String, expecting match: String) throws {
        try tmux.sendKeys("C-p")
        try tmux.waitFor("> Type to search")
        try tmux.sendLiteral(search)
        try tmux.waitUntil("\(match) chosen for \(search)") { screen in
            let lines = screen.split(separator: "\n")
            return lines.contains { $0.contains("> \(search) ") } && lines.contains { $0.contains("▸ \(match)") }
        }
        try tmux.sendKeys("Enter")
        try tmux.waitUntil("the palette closed") { !$0.contains("> \(search)") }
    }

    @Test func newWorldFromScenarioThenSwitchBackToTheDefaultWorld() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let admin = try ReferenceAdmin()
        let tmux = try Tmux(width: 100, height: 30, command: [binary] + admin.arguments)
        try tmux.waitFor("Account access")
        try tmux.waitFor("Backend: http://127.0.0.1:\(admin.port) · admin API")
        #expect(!(try tmux.capture()).contains("world bob"))
        let before = try Self.journal(admin).last?.id ?? 0

        try runCommand(tmux, "world bob default", expecting: "New world bob from scenario default")
        try tmux.waitFor("World: bob")  // the toast
        let inBob = try tmux.waitFor("world bob")  // the status strip
        #expect(inBob.contains("Account access"))
        // The app's calls from here are bob's: its QA sign-in there, then its methods on the hub.
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Email & password")
        let bob = try Self.journal(admin.inWorld("bob")).map(\.path)
        #expect(bob.contains("/_admin/session"))
        #expect(bob.contains("/me/auth-methods"))
        // The default world saw the world being made (and the palette's look at the worlds and scenarios, and
        // this test's own look at the journal), nothing else.
        let main = try Self.journal(admin, after: before).map(\.path)
        #expect(main.contains("/_admin/worlds"))
        let expected: Set = ["/_admin/worlds", "/_admin/scenarios", "/_admin/journal"]
        #expect(main.allSatisfy(expected.contains), "\(main)")

        try runCommand(tmux, "switch world default", expecting: "Switch world: default")
        try tmux.waitFor("World: default")
        try tmux.waitUntil("the strip no longer says world bob") { !$0.contains("world bob") }
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Email & password")
        let back = try Self.journal(admin, after: before).map(\.path)
        #expect(back.contains("/_admin/session"))
        #expect(back.contains("/me/auth-methods"))
    }
}
