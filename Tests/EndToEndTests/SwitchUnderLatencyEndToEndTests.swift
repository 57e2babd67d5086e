import Foundation
import Testing

/// Issue 48 item 1 in the real binary: a scenario switch while every call waits longer than the client's
/// time-out (4 s against 3 s on loopback) left the default user's hub on screen under a strip saying
/// apple-only. The switch wins: the new world's first screen, nothing of the old one's, and once the calls
/// answer again the new world's data.
@Suite(.serialized, .enabled(if: Tmux.isAvailable)) struct SwitchUnderLatencyEndToEndTests {
    @Test func aSwitchWhileCallsTimeOutStartsOverInTheNewWorld() throws {
        let admin = try ReferenceAdmin()
        let tmux = try Tmux.openHub(scenario: "default", admin: admin)
        try tmux.waitFor("+995 511 100 000")
        try admin.post("/faults", #"{"latency_ms": 4000}"#)
        try tmux.sendKeys("r")
        try tmux.runPaletteCommand("scenario apple-only", expecting: "Scenario: apple-only")
        // The toast, once the switch has landed: on Settings, under the offline banner, no old data.
        let landed = try tmux.waitUntil("the switch landed on Settings", timeout: .seconds(40)) { screen in
            screen.contains("Scenario: apple-only") && screen.contains("Account access")
                && !screen.contains("Switching")
        }
        #expect(!landed.contains("+995 511 100 000"))
        #expect(!landed.contains("jdoe@mail.com"))
        try admin.post("/faults", #"{"latency_ms": 0}"#)
        try tmux.waitUntil("the banner gone", timeout: .seconds(40)) { !$0.contains("You're offline") }
        try tmux.sendKeys("Enter")
        let hub = try tmux.waitFor("Apple")
        #expect(!hub.contains("+995 511 100 000"))
        #expect(!hub.contains("jdoe@mail.com"))
    }
}
