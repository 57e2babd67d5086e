import Foundation
import Testing

/// Issue 29 §3 and §4 in the real binary: what QA changed shows in the status strip, from the palette or from
/// another tool; a switch under latency takes no keys; another tool's scenario reset is said as such.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct StatusStripEndToEndTests {
    @Test func aFaultSetByAnotherToolShowsInTheStripUntilItIsOff() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        #expect(try !tmux.capture().contains("faults:"))
        try admin.post("/faults", #"{"latency_ms": 2000}"#)
        let strip = try tmux.waitFor("faults: +2000 ms on every call")
        #expect(strip.contains("scenario default"))
        try admin.post("/faults", #"{"latency_ms": 0}"#)
        try tmux.waitUntil("the strip gone") { !$0.contains("faults:") && !$0.contains("scenario default") }
    }

    @Test func aReloadUnderLatencyShowsItIsUnderWay() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        try admin.post("/faults", #"{"latency_ms": 2000}"#)
        try tmux.waitFor("faults: +2000 ms")
        try tmux.sendKeys("r")
        try tmux.waitFor("Refreshing…")
        try tmux.waitUntil("the reload answered") { !$0.contains("Refreshing…") }
    }

    @Test func aScenarioResetByAnotherToolIsSaidAndLandsOnTheNewWorld() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        try admin.post("/scenario", #"{"name": "coach"}"#)
        let screen = try tmux.waitFor("Scenario reset by another tool: coach")
        #expect(!screen.contains("Session expired"))
        // The new world's start (Settings), signed in as the coach: the hub opens on the new session.
        try tmux.sendKeys("Enter")
        let hub = try tmux.waitFor("Email & password")
        #expect(!hub.contains("Session expired"))
    }

    @Test func aSwitchUnderLatencyIsShownAndTakesNoKeys() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        try admin.post("/faults", #"{"latency_ms": 2000}"#)
        try tmux.waitFor("faults: +2000 ms")
        try tmux.sendKeys("C-p")
        try tmux.waitFor("> Type to search")
        try tmux.sendLiteral("scenario phone-on")
        try tmux.waitUntil("the scenario chosen") { $0.contains("▸ Scenario: phone-only") }
        try tmux.sendKeys("Enter")
        try tmux.waitFor("Switching to phone-only…")
        // On the old hub, Enter would open "New phone number" in the old world.
        try tmux.sendKeys("Enter")
        let landed = try tmux.waitFor("Scenario: phone-only")
        #expect(!landed.contains("New phone number"))
        #expect(!landed.contains("Switching to"))
    }
}
